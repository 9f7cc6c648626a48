// Who made a write. Model hooks fire for every writer but carry no request, so the request hooks (which
// wrap the model save of the very same record object) stash the caller on the record as custom data.
// PocketBase keeps an unknown key in the record's data without persisting it (DBExport writes collection
// fields only), and one prefixed "@pbInternal" is never exported, not even after WithCustomData(true),
// which the bus status's enrich turns on (core/record_model.go CustomData); the request body cannot set
// it either (RecordUpsert.Load sets known fields only).
import { currentConfig } from "../config/runtime";
import { recordOf } from "../lib/events";
import { collectionNames } from "../schema/names";
import { actorOf, SYSTEM, type Actor, type Identity } from "./actor-ref";

const ACTOR_REF = "@pbInternalActor";
const ACTOR_NAME = "@pbInternalActorName";

/** The actor of a caller (undefined: no session). */
export function actorFor(auth: core.Record | undefined): Actor {
  const users = collectionNames(currentConfig()).users;
  return actorOf(auth ? identityOf(auth, users) : undefined, users);
}

function identityOf(record: core.Record, users: string): Identity {
  const collection = record.collection().name;
  return {
    collection,
    id: record.id,
    email: record.getString("email"),
    profileName: collection === users ? record.getString("name") : "",
    emailVisible: record.getBool("emailVisibility"),
  };
}

/** onRecordCreateRequest / UpdateRequest / DeleteRequest, before e.next(). */
export function stampActor(e: core.RecordRequestEvent): void {
  attribute(recordOf(e), e.auth);
}

/** Attributes a record's next save or delete to `auth` (routes that write with server privileges may call it). */
export function attribute(record: core.Record, auth: core.Record | undefined): void {
  const actor = actorFor(auth);
  record.set(ACTOR_REF, actor.ref);
  record.set(ACTOR_NAME, actor.name);
}

/** Whether a request or a route made this write itself (rather than a cascade, a hook or a command). */
export function isAttributed(record: core.Record): boolean {
  return typeof record.get(ACTOR_REF) === "string";
}

export function stampedActor(record: core.Record): Actor {
  const ref: unknown = record.get(ACTOR_REF);
  const name: unknown = record.get(ACTOR_NAME);
  if (typeof ref !== "string" || typeof name !== "string") return SYSTEM;
  return { ref, name };
}
