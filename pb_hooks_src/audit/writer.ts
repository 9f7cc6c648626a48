// Persists audit and activity entries as records of their collections (so realtime subscribers of the
// feed see them), with the app the caller passes: inside a write's transaction that is the transaction.
// Entries are built by code, not by callers, so they are saved without validation (PocketBase's and
// every domain's onRecordValidate invariants): only a database failure can refuse an entry, and that
// failure rolls back the write it describes.
import type { CollectionNames } from "../schema/names";
import type { AuditEntry } from "./entries";
import type { ActivityEntry } from "./feed";

/** Marks the feed's own rows: each mirrors an audited inventory write, so auditing it again adds nothing. */
const DERIVED = "@derived";

/**
 * The saved entry, or undefined before the schema migration has created the audit collection (the
 * only time it can be missing: every startup runs the migrations first).
 */
export function writeAudit(app: CoreApp, n: CollectionNames, entry: AuditEntry): core.Record | undefined {
  return saveEntry(app, n.audit_logs, { ...entry });
}

export function writeActivity(app: CoreApp, n: CollectionNames, entry: ActivityEntry): void {
  saveEntry(app, n.activity, { ...entry }, (r) => r.set(DERIVED, true));
}

/** An entry's fields are its collection's columns. */
function saveEntry(app: CoreApp, name: string, fields: Record<string, unknown>, mark?: (record: core.Record) => void): core.Record | undefined {
  const collection = cachedCollection(app, name);
  if (!collection) return undefined;
  const record = new Record(collection);
  record.load(fields);
  mark?.(record);
  app.saveNoValidate(record);
  return record;
}

export function isDerivedActivity(record: core.Record): boolean {
  return record.get(DERIVED) === true;
}

function cachedCollection(app: CoreApp, name: string): core.Collection | undefined {
  try {
    return app.findCachedCollectionByNameOrId(name);
  } catch {
    return undefined;
  }
}
