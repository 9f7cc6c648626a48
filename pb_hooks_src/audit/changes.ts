// Which fields a write changed, and which of their values an audit entry may keep (pure).

/** What the audit log needs to know about a field of a collection. */
export interface FieldInfo {
  name: string;
  /** PocketBase field type: text, password, json, autodate, ... */
  type: string;
  hidden: boolean;
}

/** Plain JSON values of a record, by field name. */
export type Values = Record<string, unknown>;

/**
 * Credentials never leave the process: password hashes, the token key (whose knowledge forges
 * sessions) and every field the schema hides from API responses (seeds, private keys, ...).
 */
export function isSecret(field: FieldInfo): boolean {
  return field.hidden || field.type === "password" || field.name === "tokenKey";
}

/** The id is the entry's record_id, and autodate timestamps change on every write: neither is news. */
function isBookkeeping(field: FieldInfo): boolean {
  return field.name === "id" || field.type === "autodate";
}

/**
 * Names of the fields a write changed: on create those given a non-empty value, on update those whose
 * value differs, on delete (no `after`) all of them.
 */
export function changedFields(fields: readonly FieldInfo[], before: Values | undefined, after: Values | undefined): string[] {
  const tracked = fields.filter((field) => !isBookkeeping(field));
  const changed = tracked.filter((field) => {
    if (after === undefined) return true;
    if (before === undefined) return !isEmpty(after[field.name]);
    return !sameValue(before[field.name], after[field.name]);
  });
  return changed.map((field) => field.name);
}

/** The non-secret values of `names`, or null when there is no such state (before a create, after a delete). */
export function valuesOf(fields: readonly FieldInfo[], values: Values | undefined, names: readonly string[]): Values | null {
  if (values === undefined) return null;
  const kept: Values = {};
  for (const field of fields) {
    if (names.includes(field.name) && !isSecret(field)) kept[field.name] = values[field.name] ?? null;
  }
  return kept;
}

/** A zero value: what a field holds when a create did not set it. */
export function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === "" || value === false || value === 0) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === "object") return Object.keys(value).length === 0;
  return false;
}

/**
 * Whether two values are the same JSON document (canonical text), deciding without it where it can: an
 * account's claim and revocation list run to hundreds of kilobytes, and writing them out sorted cost more
 * than the rest of a revocation.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === "string" && typeof b === "string") return false;
  if (typeof a === "object" && a !== null && typeof b === "object" && b !== null) {
    if (Array.isArray(a) !== Array.isArray(b) || Object.keys(a).length !== Object.keys(b).length) return false;
  }
  return canonical(a) === canonical(b);
}

/** JSON text with object keys sorted, so that equal JSON documents compare equal whatever their key order. */
export function canonical(value: unknown): string {
  if (value === undefined) return "null";
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const object = value as Record<string, unknown>;
    const keys = Object.keys(object).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(object[key])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
