// Relations checked again inside the write's transaction. PocketBase checks that a relation's records
// exist while it validates, before the write's transaction and on another connection: a delete committed
// between that check and the write left the new row pointing at nothing (a Thing of a deleted
// organization that still signed in; a Thing whose deleted type then refused its deactivation). Writes are
// serialized inside the transaction, so the check there sees every delete committed before it, and a
// delete committed after it finds the row in its own cascade.
import { fieldsOf, findRecord } from "./collections";
import { badRequest } from "./errors";
import type { WriteAction, WriteEffects } from "./effects";

/** The check as a write's effect, for the creates and updates of collections that have relations. */
export function relationsExist(record: core.Record, action: WriteAction): WriteEffects | undefined {
  if (action === "delete" || !fieldsOf(record.collection()).some((field) => field.type() === "relation")) return undefined;
  return { before: (tx, previous) => refuseDanglingRelations(tx, record, previous) };
}

/**
 * Throws a 400 RouteError when the write sets a relation to a record that does not exist as committed.
 * Only ids the committed row does not already hold are looked up: one lookup per relation a write sets.
 */
function refuseDanglingRelations(tx: CoreApp, record: core.Record, previous: core.Record | undefined): void {
  for (const field of fieldsOf(record.collection())) {
    if (field.type() !== "relation") continue;
    const name = field.getName();
    // Go slices reach goja as array-like wrappers: copied into plain arrays first.
    const held = previous ? Array.from(previous.getStringSlice(name)) : [];
    const target = (field as core.RelationField).collectionId;
    for (const id of Array.from(record.getStringSlice(name))) {
      if (held.includes(id) || findRecord(tx, target, id)) continue;
      throw badRequest(`${name} refers to a record that no longer exists (a concurrent write deleted it)`);
    }
  }
}
