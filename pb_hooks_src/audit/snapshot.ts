// Reads records and collection definitions into plain JSON values at the goja boundary.
import { fieldsOf } from "../lib/collections";
import { isEmpty, isSecret, type FieldInfo, type Values } from "./changes";

export function fieldInfos(collection: core.Collection): FieldInfo[] {
  return fieldsOf(collection).map((field) => ({ name: field.getName(), type: field.type(), hidden: field.getHidden() }));
}

/**
 * The record's values by field. Secrets are only ever compared (to name them in changed_fields), so
 * they are held as digests (empty stays empty, so a create still tells set from unset): a redaction
 * mistake downstream could not leak the value itself. Without `parseJson`, where values are only
 * compared, a JSON field is its stored text: PocketBase stores it compact, so the same document reads as
 * the same text unless its keys were reordered, and an account's 5,000-entry revocation list is not
 * parsed twice per write to learn that it changed.
 */
export function recordValues(record: core.Record, fields: readonly FieldInfo[], parseJson = true): Values {
  const values: Values = {};
  for (const field of fields) {
    const value = field.type === "json" && !parseJson ? record.getString(field.name) : fieldValue(record, field);
    values[field.name] = isSecret(field) && !isEmpty(value) ? $security.sha256(JSON.stringify(value)) : value;
  }
  return values;
}

function fieldValue(record: core.Record, field: FieldInfo): unknown {
  switch (field.type) {
    // get() gives the plain password (empty unless being set); the stored hash is what changes.
    case "password":
      return record.getString(`${field.name}:hash`);
    // get() gives JSON fields as raw bytes; their text is the document.
    case "json":
      return parseJson(record.getString(field.name));
    // DateTime values print as PocketBase's "2006-01-02 15:04:05.000Z" text.
    case "date":
    case "autodate":
    // Plain text as it is: an account's claim runs to hundreds of kilobytes.
    case "text":
      return record.getString(field.name);
    default:
      return plain(record.get(field.name));
  }
}

/** The collection definition as its API JSON (token secrets are not part of it). */
export function collectionValues(collection: core.Collection): Values {
  return plain(collection) as Values;
}

/** Go values (slices, structs with MarshalJSON) through JSON, so comparisons see plain data. */
function plain(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? null : (JSON.parse(text) as unknown);
}

function parseJson(text: string): unknown {
  if (text === "") return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
