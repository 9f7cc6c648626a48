// Record writes → audit and activity entries, for every writer (API, SuperUsers, hooks, commands).
//
// Bound to onRecordCreateExecute / UpdateExecute / DeleteExecute: the innermost record hooks, which run
// for every save and around the SQL statement itself. The handler opens a transaction (or joins the
// caller's) around e.next(), so the row and its entries commit together: no change without its entry,
// no entry for a change that rolled back, and a failing entry write fails the operation visibly.
// onRecordAfter*Success would run after the commit (a lost entry on failure); onRecordCreate would also
// hold the transaction through validation.
import { currentConfig } from "../config/runtime";
import { findRecord, organizationExists } from "../lib/collections";
import { notFound } from "../lib/errors";
import { recordOf } from "../lib/events";
import { rebaseOnCommitted } from "../lib/rebase";
import { collectionNames, type CollectionNames } from "../schema/names";
import { isAttributed, stampedActor } from "./actor";
import { recordEntry } from "./entries";
import type { WriteAction, WriteEffects } from "../lib/effects";
import { activityLabel } from "./feed";
import { isAudited, isInventory, keepsValues } from "./policy";
import { fieldInfos, recordValues } from "./snapshot";
import { inOneTransaction } from "./transaction";
import { isDerivedActivity, writeActivity, writeAudit } from "./writer";

/**
 * Performs the write (e.next()) with its domain effects and its entries in one transaction. Without
 * entries or effects to add, the write proceeds as PocketBase does it.
 */
export function journal(e: core.RecordEvent, action: WriteAction, effects?: WriteEffects): void {
  const n = collectionNames(currentConfig());
  const record = recordOf(e);
  const collection = record.collection();
  const audited = isAudited(n, collection.name) && !isDerivedActivity(record);
  const inventory = isInventory(n, collection.name);
  if (!audited && !inventory && !effects) {
    e.next();
    return;
  }
  const fields = fieldInfos(collection);
  inOneTransaction(e, (tx) => {
    // The row as committed before this write, read inside the transaction (writes are serialized there):
    // record.original() is the copy the request loaded, which a concurrent writer may have changed since.
    const previous = action === "create" ? undefined : findRecord(tx, collection.name, record.id);
    if (action !== "create" && !previous) {
      // A concurrent delete committed after this write loaded the row. The request that asked for this
      // write is told so, and nothing is recorded; a cascade reaching a row an earlier step of the same
      // cascade removed has nothing left to do.
      if (isAttributed(record)) throw notFound("the record no longer exists: a concurrent write deleted it");
      e.next();
      return;
    }
    if (previous && action === "update") rebaseOnCommitted(record, previous);
    effects?.before?.(tx, previous);
    // Where only field names are kept, a JSON field is compared as the text stored (snapshot.ts).
    const withValues = keepsValues(n, collection.name);
    const before = action === "create" || !audited ? undefined : recordValues(previous ?? record, fields, withValues);
    e.next();
    effects?.after?.(tx, previous);
    const after = action === "delete" || !audited ? undefined : recordValues(record, fields, withValues);
    const actor = stampedActor(record);
    if (audited) {
      writeAudit(tx, n, recordEntry({ collection: collection.name, recordId: record.id, action, actor: actor.ref, fields, before, after, withValues }));
    }
    if (inventory) recordActivity(tx, n, record, action, actor.name);
  });
}

function recordActivity(tx: CoreApp, n: CollectionNames, record: core.Record, action: WriteAction, actor: string): void {
  const organization = record.getString("organization");
  // A delete or an update (a relation cleared) cascading from its organization's delete: the
  // organization's feed is gone with it, and an entry nobody can ever read would only pin a dangling
  // relation. A create needs its organization to exist, which lib/relations.ts checks in the transaction.
  if (action !== "create" && !organizationExists(tx, n, organization)) return;
  writeActivity(tx, n, {
    organization,
    actor,
    action,
    record: record.collection().name,
    resource_id: record.id,
    label: activityLabel(record.getString("name"), record.getString("code")),
  });
}
