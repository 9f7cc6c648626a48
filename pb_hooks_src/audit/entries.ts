// The audit entries themselves, built from what a write or sign-in saw (pure).
import { changedFields, valuesOf, type FieldInfo, type Values } from "./changes";
import type { AuditAction } from "./collections";
import { SCHEMA } from "./policy";

export type WriteAction = Exclude<AuditAction, "auth">;

/** One row of audit_logs (its fields as collections.ts defines them). */
export interface AuditEntry {
  collection: string;
  record_id: string;
  action: AuditAction;
  actor: string;
  changed_fields: string[];
  before: Values | null;
  after: Values | null;
}

export interface RecordWrite {
  collection: string;
  recordId: string;
  action: WriteAction;
  actor: string;
  fields: readonly FieldInfo[];
  /** Stored values before the write (update, delete). */
  before?: Values;
  /** Values after the write (create, update). */
  after?: Values;
  /** Whether the collection is on the value allowlist; otherwise only field names are kept. */
  withValues: boolean;
}

/** Values are limited to the changed fields: on delete that is every field, on create every field set. */
export function recordEntry(write: RecordWrite): AuditEntry {
  const changed = changedFields(write.fields, write.before, write.after);
  return {
    collection: write.collection,
    record_id: write.recordId,
    action: write.action,
    actor: write.actor,
    changed_fields: changed,
    before: write.withValues ? valuesOf(write.fields, write.before, changed) : null,
    after: write.withValues ? valuesOf(write.fields, write.after, changed) : null,
  };
}

export function authEntry(collection: string, recordId: string, actor: string): AuditEntry {
  return { collection, record_id: recordId, action: "auth", actor, changed_fields: [], before: null, after: null };
}

/**
 * Email templates live in auth collection options, so they are audited as collection definition
 * changes. These are their paths in the collection's JSON; they are the only option values kept.
 */
export const EMAIL_TEMPLATE_PATHS = [
  "verificationTemplate",
  "resetPasswordTemplate",
  "confirmEmailChangeTemplate",
  "authAlert.emailTemplate",
  "otp.emailTemplate",
] as const;

export interface SchemaWrite {
  collectionId: string;
  action: WriteAction;
  actor: string;
  /** The collection's JSON before the write (update, delete) and after it (create, update). */
  before?: Values;
  after?: Values;
}

/** changed_fields names the top-level options that changed (listRule, fields, authAlert, ...). */
export function schemaEntry(write: SchemaWrite): AuditEntry {
  const keys = [...new Set([...Object.keys(write.before ?? {}), ...Object.keys(write.after ?? {})])];
  // Options are compared like fields; created/updated are the definition's own timestamps.
  const options: FieldInfo[] = keys.map((name) => ({ name, type: name === "created" || name === "updated" ? "autodate" : "option", hidden: false }));
  const changedTemplates = EMAIL_TEMPLATE_PATHS.filter((path) =>
    changedFields([{ name: path, type: "option", hidden: false }], pick(write.before, path), pick(write.after, path)).length > 0,
  );
  return {
    collection: SCHEMA,
    record_id: write.collectionId,
    action: write.action,
    actor: write.actor,
    changed_fields: changedFields(options, write.before, write.after),
    before: templateValues(write.before, changedTemplates),
    after: templateValues(write.after, changedTemplates),
  };
}

/** `{path: value}` for a dotted path, or undefined when the collection state is absent. */
function pick(values: Values | undefined, path: string): Values | undefined {
  if (values === undefined) return undefined;
  let current: unknown = values;
  for (const key of path.split(".")) {
    current = current !== null && typeof current === "object" ? (current as Values)[key] : undefined;
  }
  return { [path]: current ?? null };
}

function templateValues(values: Values | undefined, paths: readonly string[]): Values | null {
  if (values === undefined || paths.length === 0) return null;
  return Object.assign({}, ...paths.map((path) => pick(values, path)));
}

/** The stdout mirror (audit.log_to_console): one JSON line, field names only, never a value. */
export function consoleLine(entry: Omit<AuditEntry, "before" | "after">, time: string): string {
  return JSON.stringify({
    type: "audit",
    time,
    collection: entry.collection,
    record_id: entry.record_id,
    action: entry.action,
    actor: entry.actor,
    changed_fields: entry.changed_fields,
  });
}
