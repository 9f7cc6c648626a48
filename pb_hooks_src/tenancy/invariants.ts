// Server-side invariants that hold for every writer (API, SuperUsers, the admin UI, hooks, commands).
import { fieldsOf, findRecord, hasField, membershipOf } from "../lib/collections";
import type { CollectionNames } from "../schema/names";

/** Spec rule 11: a relation may not point into another organization's records. */
export function refuseCrossTenantRelations(app: CoreApp, n: CollectionNames, record: core.Record): void {
  const collection = record.collection();
  const ownOrganization = organizationOf(record, n);
  for (const field of fieldsOf(collection)) {
    if (field.type() !== "relation" || field.getName() === "organization") continue;
    const ids = record.getStringSlice(field.getName());
    if (ids.length === 0) continue;
    const target = app.findCachedCollectionByNameOrId((field as core.RelationField).collectionId);
    if (target.name === n.organizations) {
      refuseForeignOrganization(app, n, record, field.getName(), ids);
      continue;
    }
    if (!hasField(target, "organization")) continue;
    for (let i = 0; i < ids.length; i++) {
      // A missing target is PocketBase's own validation error; only existing foreign rows are ours.
      const linked = findRecord(app, target.name, ids[i]);
      if (linked && linked.getString("organization") !== ownOrganization) {
        throw new BadRequestError(`${field.getName()} points into another organization's records`);
      }
    }
  }
}

/**
 * A record stays in the organization it was created in, whoever writes (tenants cannot name another one
 * by rule; this holds SuperUsers too). Moving one would leave the rows that point at it, and its own
 * credentials (a bus user signed by the old account, a host certificate of the old CA, a Thing's address in
 * the old domain), in the organization it left.
 */
export function refuseOrganizationChange(record: core.Record): void {
  if (record.isNew() || !hasField(record.collection(), "organization")) return;
  if (record.getString("organization") === record.original().getString("organization")) return;
  throw new BadRequestError("organization cannot change: a record stays in the organization it was created in (create it anew in the other one)");
}

/** users.current_organization may only name an organization the user belongs to. */
function refuseForeignOrganization(app: CoreApp, n: CollectionNames, record: core.Record, field: string, ids: string[]): void {
  if (record.collection().name !== n.users) return;
  for (let i = 0; i < ids.length; i++) {
    if (!membershipOf(app, n, record.id, ids[i])) {
      throw new BadRequestError(`${field} must be an organization the user is a member of`);
    }
  }
}

function organizationOf(record: core.Record, n: CollectionNames): string {
  return record.collection().name === n.organizations ? record.id : record.getString("organization");
}

const PLATFORM_FLAGS = ["is_operator_org", "is_system_org"];

/**
 * The operator and system organizations refuse suspension, for every writer. The flags that make them so
 * are bootstrap's and never change on an update, a SuperUser's included: clearing one in the write that
 * suspends got round the refusal, and a system organization unflagged fails readiness's bootstrap check.
 */
export function refusePlatformOrganizationSuspension(record: core.Record): void {
  const changed = record.isNew() ? undefined : PLATFORM_FLAGS.find((flag) => record.getBool(flag) !== record.original().getBool(flag));
  if (changed) throw new BadRequestError(`${changed} is set by bootstrap and cannot change`);
  const platformOrganization = PLATFORM_FLAGS.some((flag) => record.getBool(flag));
  if (platformOrganization && !record.getBool("active")) {
    throw new BadRequestError("the operator and system organizations cannot be suspended");
  }
}

/**
 * Nor deleted, by anyone: readiness then fails its bootstrap check, and `bootstrap`, which the check
 * names as the fix, refuses to run twice.
 */
export function refusePlatformOrganizationDelete(record: core.Record): void {
  if (PLATFORM_FLAGS.some((flag) => record.getBool(flag))) {
    throw new BadRequestError("the operator and system organizations cannot be deleted");
  }
}

/** Deleting a membership clears the user's active organization when it pointed there (rule 9). */
export function clearActiveOrganization(app: CoreApp, n: CollectionNames, membership: core.Record): void {
  const user = findRecord(app, n.users, membership.getString("user"));
  if (!user || user.getString("current_organization") !== membership.getString("organization")) return;
  user.set("current_organization", "");
  app.save(user);
}
