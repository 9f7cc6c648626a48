import { organizationExists } from "./collections";
import type { CollectionNames } from "../schema/names";

/**
 * What a domain does around one record write, inside the write's transaction: `before` runs just before
 * the row is written (it may still set fields of the record), `after` just after (it may write other
 * records). Either failing rolls the whole write back. For an update, `previous` is the row as committed
 * before this write, read inside the transaction: cascades decide from it, never from the copy the
 * request loaded (record.original()), which a concurrent writer may have changed since.
 */
export interface WriteEffects {
  before?(tx: CoreApp, previous: core.Record | undefined): void;
  after?(tx: CoreApp, previous: core.Record | undefined): void;
}

export type WriteAction = "create" | "update" | "delete";

/** Several domains' effects as one, run in the given order (all inside the same transaction). */
export function combineEffects(...parts: (WriteEffects | undefined)[]): WriteEffects | undefined {
  const present = parts.filter((p): p is WriteEffects => p !== undefined);
  if (present.length <= 1) return present[0];
  return {
    before: (tx, previous) => present.forEach((p) => p.before?.(tx, previous)),
    after: (tx, previous) => present.forEach((p) => p.after?.(tx, previous)),
  };
}

export type ActiveTransition = "deactivated" | "reactivated" | undefined;

/**
 * A Thing's delete decommissions it as a deactivation does (its identities suspended), when it was
 * active and its organization stays: with the organization, everything goes.
 */
export function deletedActiveThing(tx: CoreApp, n: CollectionNames, previous: core.Record | undefined): ActiveTransition {
  if (!previous?.getBool("active") || !organizationExists(tx, n, previous.getString("organization"))) return undefined;
  return "deactivated";
}

/** How this write changes the record's `active` flag, judged against the committed row (none on create). */
export function activeTransition(previous: core.Record | undefined, record: core.Record): ActiveTransition {
  if (!previous || previous.getBool("active") === record.getBool("active")) return undefined;
  return record.getBool("active") ? "reactivated" : "deactivated";
}
