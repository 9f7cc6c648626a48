// How an identity is written as an actor (pure): a reference for the audit log, plain text for the feed.
import { SUPERUSERS } from "./policy";

export interface Actor {
  /** The audit log's actor: `<collection>:<id>`, `anonymous` or `system`. */
  ref: string;
  /** The activity feed's actor: plain text a tenant may read (an e-mail address, `superuser`, `system`). */
  name: string;
}

/** A write without a request: hooks, cron, commands, migrations, cascades. */
export const SYSTEM: Actor = { ref: "system", name: "system" };
export const ANONYMOUS: Actor = { ref: "anonymous", name: "anonymous" };

export interface Identity {
  collection: string;
  id: string;
  email: string;
}

/** SuperUsers appear to tenants as `superuser`: the platform's staff addresses stay internal. */
export function actorOf(identity: Identity | undefined): Actor {
  if (identity === undefined) return ANONYMOUS;
  const ref = `${identity.collection}:${identity.id}`;
  if (identity.collection === SUPERUSERS) return { ref, name: "superuser" };
  return { ref, name: identity.email !== "" ? identity.email : ref };
}
