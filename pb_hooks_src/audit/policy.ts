// Which collections the audit log and the activity feed cover, and which keep values (pure).
import { INVENTORY, type CollectionKey, type CollectionNames } from "../schema/names";

/** PocketBase's SuperUser collection: the one internal (`_`) collection the audit log covers. */
export const SUPERUSERS = "_superusers";

/**
 * The `collection` of audit entries that describe a collection definition (schema, API rules, auth
 * options and email templates) rather than a record: PocketBase's own table of collections.
 */
export const SCHEMA = "_collections";

/**
 * Spec 2.1: before/after values are kept only for these collections. Every other collection, including
 * ones added later, records field names only (deny by default).
 */
export const VALUE_COLLECTIONS: readonly CollectionKey[] = [
  "organizations",
  "memberships",
  "users",
  ...INVENTORY,
  "bus_roles",
  "overlay_networks",
];

/**
 * Record writes of every collection are audited except the audit log itself (an entry per entry would
 * never end) and PocketBase's internal `_` collections (MFA, OTP, auth origins, external auths:
 * bookkeeping of sign-ins, which are audited as `auth` events), with `_superusers` kept in full.
 */
export function isAudited(n: CollectionNames, collection: string): boolean {
  if (collection === n.audit_logs) return false;
  return !collection.startsWith("_") || collection === SUPERUSERS;
}

export function keepsValues(n: CollectionNames, collection: string): boolean {
  return VALUE_COLLECTIONS.some((key) => n[key] === collection);
}

/** Rule 14: the feed covers exactly the five inventory collections. */
export function isInventory(n: CollectionNames, collection: string): boolean {
  return INVENTORY.some((key) => n[key] === collection);
}
