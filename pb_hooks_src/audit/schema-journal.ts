// Collection definition writes → audit entries (collection `_collections`). This is where email
// templates live: PocketBase keeps them in auth collection options, so a template edit is a collection
// update, and the templates are the only option values an entry keeps (spec 2.1 allowlist).
//
// Same transaction placement as record writes (journal.ts). A collection is no record and cannot carry
// custom data, so the request hooks stash the SuperUser under the collection id in the app store for
// the duration of the request; imports (/api/collections/import) and non-API writers are `system`.
import { currentConfig } from "../config/runtime";
import { collectionNames } from "../schema/names";
import { actorFor } from "./actor";
import { SYSTEM } from "./actor-ref";
import type { Values } from "./changes";
import { schemaEntry, type WriteAction } from "./entries";
import { collectionValues } from "./snapshot";
import { inOneTransaction } from "./transaction";
import { writeAudit } from "./writer";

const ACTOR_KEY_PREFIX = "observability.collection-actor.";

/** onCollectionCreateRequest / UpdateRequest / DeleteRequest: wraps e.next(). */
export function stampCollectionActor(e: core.CollectionRequestEvent): void {
  const collection = collectionOf(e);
  const key = ACTOR_KEY_PREFIX + collection.id;
  e.app.store().set(key, actorFor(e.auth).ref);
  try {
    e.next();
  } finally {
    e.app.store().remove(key);
  }
}

export function journalCollectionCreate(e: core.CollectionEvent): void {
  journalCollection(e, "create");
}

export function journalCollectionUpdate(e: core.CollectionEvent): void {
  journalCollection(e, "update");
}

export function journalCollectionDelete(e: core.CollectionEvent): void {
  journalCollection(e, "delete");
}

function journalCollection(e: core.CollectionEvent, action: WriteAction): void {
  const n = collectionNames(currentConfig());
  const collection = collectionOf(e);
  // The audit collection's own removal cannot be recorded in it.
  if (action === "delete" && collection.name === n.audit_logs) {
    e.next();
    return;
  }
  inOneTransaction(e, (tx) => {
    const before = action === "create" ? undefined : storedDefinition(tx, collection.id);
    e.next();
    const after = action === "delete" ? undefined : collectionValues(collection);
    writeAudit(tx, n, schemaEntry({ collectionId: collection.id, action, actor: stashedActor(tx, collection.id), before, after }));
  });
}

/** Read from the database, not the cache: a caller may have mutated the cached object in place. */
function storedDefinition(tx: CoreApp, id: string): Values | undefined {
  try {
    return collectionValues(tx.findCollectionByNameOrId(id));
  } catch {
    return undefined;
  }
}

function stashedActor(app: CoreApp, id: string): string {
  const actor: unknown = app.store().get(ACTOR_KEY_PREFIX + id);
  return typeof actor === "string" ? actor : SYSTEM.ref;
}

function collectionOf(e: { collection?: core.Collection }): core.Collection {
  if (!e.collection) throw new Error("collection event without a collection");
  return e.collection;
}
