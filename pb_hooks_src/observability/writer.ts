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
  const collection = cachedCollection(app, n.audit_logs);
  if (!collection) return undefined;
  const record = new Record(collection);
  record.set("collection", entry.collection);
  record.set("record_id", entry.record_id);
  record.set("action", entry.action);
  record.set("actor", entry.actor);
  record.set("changed_fields", entry.changed_fields);
  record.set("before", entry.before);
  record.set("after", entry.after);
  app.saveNoValidate(record);
  return record;
}

export function writeActivity(app: CoreApp, n: CollectionNames, entry: ActivityEntry): void {
  const collection = cachedCollection(app, n.activity);
  if (!collection) return;
  const record = new Record(collection);
  record.set("organization", entry.organization);
  record.set("actor", entry.actor);
  record.set("action", entry.action);
  record.set("record", entry.record);
  record.set("resource_id", entry.resource_id);
  record.set("label", entry.label);
  record.set(DERIVED, true);
  app.saveNoValidate(record);
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
