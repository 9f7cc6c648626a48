// The audit log screen's pure parts: the filter it sends (only on indexed fields: actor, action,
// collection, each with an (field, created) index) and an entry's changes as rows to show. Values arrive
// already without secrets (the server never stores passwords, token keys or hidden fields, and keeps
// values only for the spec 2.1 allowlist), so the console shows what it receives, shortened.

/** audit_logs.action's values (lists.test.ts checks them against the schema). */
export const AUDIT_ACTIONS = ["create", "update", "delete", "auth"] as const;

export interface AuditFilters {
  /** An actor reference as the log writes it: `users:<id>`, `things:<id>`, `_superusers:<id>`, `system`, `anonymous`. */
  actor: string;
  /** One of AUDIT_ACTIONS, or "" for any. */
  action: string;
  /** A collection name, or "" for any. */
  collection: string;
}

export const NO_FILTERS: AuditFilters = { actor: "", action: "", collection: "" };

/** A filter expression with placeholders and its parameters (for `pb.filter`), or null for the whole log. */
export function auditFilter(filters: AuditFilters): { expr: string; params: Record<string, string> } | null {
  const clauses: string[] = [];
  const params: Record<string, string> = {};
  for (const field of ["actor", "action", "collection"] as const) {
    const value = filters[field].trim();
    if (!value) continue;
    clauses.push(`${field} = {:${field}}`);
    params[field] = value;
  }
  return clauses.length > 0 ? { expr: clauses.join(" && "), params } : null;
}

/** The id of a users actor (`users:<id>`), whose name the screen may show; null for any other actor. */
export function userIdOf(actor: string): string | null {
  const match = /^users:([A-Za-z0-9]+)$/.exec(actor);
  return match ? match[1] : null;
}

export interface Change {
  field: string;
  /** Shown values; null when the entry keeps none for this field (not on the allowlist, or a secret). */
  before: string | null;
  after: string | null;
}

const MAX_VALUE = 120;

/** A value as short JSON text (a string quoted, so "" and a missing value read apart), cut at MAX_VALUE characters. */
export function shown(value: unknown): string {
  const text = JSON.stringify(value ?? null);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

function valueOf(values: unknown, field: string): string | null {
  if (values === null || typeof values !== "object" || !(field in values)) return null;
  return shown((values as Record<string, unknown>)[field]);
}

/** One row per changed field, with the values the entry kept for it. */
export function changesOf(entry: Record<string, unknown>): Change[] {
  const fields = Array.isArray(entry.changed_fields) ? entry.changed_fields.filter((f): f is string => typeof f === "string") : [];
  return fields.map((field) => ({ field, before: valueOf(entry.before, field), after: valueOf(entry.after, field) }));
}
