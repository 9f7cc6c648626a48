// Relations checked again inside the write's transaction. PocketBase checks that a relation's records
// exist while it validates, before the write's transaction and on another connection: a delete committed
// between that check and the write left the new row pointing at nothing (a Thing of a deleted
// organization that still signed in; a Thing whose deleted type then refused its deactivation). Writes are
// serialized inside the transaction, so the check there sees every delete committed before it, and a
// delete committed after it finds the row in its own cascade.
import { fieldsOf } from "./collections";
import { badRequest } from "./errors";
import type { WriteAction, WriteEffects } from "./effects";

/** The check as a write's effect, for the creates and updates of collections that have relations. */
export function relationsExist(record: core.Record, action: WriteAction): WriteEffects | undefined {
  if (action === "delete" || relationFieldsOf(record.collection()).length === 0) return undefined;
  return { before: (tx, previous) => refuseDanglingRelations(tx, record, previous) };
}

interface RelationField {
  name: string;
  targetId: string;
}

/** Per VM, by collection id and last change: every write asks, and reading fields through goja is slow. */
const relationFields = new Map<string, RelationField[]>();

function relationFieldsOf(collection: core.Collection): RelationField[] {
  const key = `${collection.id}@${collection.updated.string()}`;
  let fields = relationFields.get(key);
  if (!fields) {
    fields = fieldsOf(collection)
      .filter((field) => field.type() === "relation")
      .map((field) => ({ name: field.getName(), targetId: (field as core.RelationField).collectionId }));
    relationFields.set(key, fields);
  }
  return fields;
}

/**
 * Throws a 400 RouteError when the write sets a relation to a record that does not exist as committed.
 * Only ids the committed row does not already hold are looked up, all in one query.
 */
function refuseDanglingRelations(tx: CoreApp, record: core.Record, previous: core.Record | undefined): void {
  const probes: { field: string; table: string; id: string }[] = [];
  for (const field of relationFieldsOf(record.collection())) {
    // Go slices reach goja as array-like wrappers: copied into plain arrays first.
    const held = previous ? Array.from(previous.getStringSlice(field.name)) : [];
    const table = tx.findCachedCollectionByNameOrId(field.targetId).name;
    for (const id of Array.from(record.getStringSlice(field.name))) {
      if (!held.includes(id)) probes.push({ field: field.name, table, id });
    }
  }
  if (probes.length === 0) return;
  const counts = new DynamicModel(Object.fromEntries(probes.map((_, i) => [`n${i}`, 0]))) as Record<string, number>;
  const columns = probes.map((probe, i) => `(SELECT COUNT(*) FROM {{${probe.table}}} WHERE [[id]] = {:id${i}}) AS n${i}`);
  tx.db().newQuery(`SELECT ${columns.join(", ")}`).bind(Object.fromEntries(probes.map((probe, i) => [`id${i}`, probe.id]))).one(counts);
  const missing = probes.find((_, i) => counts[`n${i}`] === 0);
  if (missing) throw badRequest(`${missing.field} refers to a record that no longer exists (a concurrent write deleted it)`);
}
