// How an identity is written as an actor (pure): a reference for the audit log, plain text for the feed.
import { SUPERUSERS } from "./policy";

export interface Actor {
  /** The audit log's actor: `<collection>:<id>`, `anonymous` or `system`. */
  ref: string;
  /** The activity feed's actor: plain text every role of a tenant may read (a user's profile name, a Thing's address, `superuser`, `system`). */
  name: string;
}

/** A write without a request: hooks, cron, commands, migrations, cascades. */
export const SYSTEM: Actor = { ref: "system", name: "system" };
export const ANONYMOUS: Actor = { ref: "anonymous", name: "anonymous" };

export interface Identity {
  collection: string;
  id: string;
  email: string;
  /** A user's profile name ("" when unset or not a user). */
  profileName: string;
  /** Whether the user made its address visible (PocketBase's emailVisibility). */
  emailVisible: boolean;
}

/** SuperUsers appear to tenants as `superuser`: the platform's staff addresses stay internal. */
export function actorOf(identity: Identity | undefined, usersCollection: string): Actor {
  if (identity === undefined) return ANONYMOUS;
  const ref = `${identity.collection}:${identity.id}`;
  if (identity.collection === SUPERUSERS) return { ref, name: "superuser" };
  const name = feedName(identity, usersCollection);
  if (!name) return { ref, name: ref };
  // A profile name is the user's to choose: one that reads as the feed's own words or as another
  // identity's reference carries its author's reference too, so it cannot pass for them.
  return { ref, name: MISTAKABLE.test(name) ? `${name} (${ref})` : name };
}

/** `system`, `anonymous`, `superuser`, and `<collection>:<id>` references, as the feed writes them. */
const MISTAKABLE = /^(system|anonymous|superuser|[A-Za-z_][A-Za-z0-9_]*:\S+)$/i;

/**
 * A user appears in the feed as the Members screen shows it: by profile name, and by address only if the
 * user made it visible; every role reads the feed, and an address stays private to its owner otherwise
 * (docs/decisions/056-activity-feed-names-by-profile.md). A Thing's address is the platform's, made from
 * its code.
 */
function feedName(identity: Identity, usersCollection: string): string {
  if (identity.collection !== usersCollection) return identity.email;
  return identity.profileName.trim() || (identity.emailVisible ? identity.email : "");
}
