// The bus identity of a Thing created with bus.mode auto (spec 4.2): a new bus user of the organization's
// active account, with the given role or the organization's default role.
import { findRecord } from "../lib/collections";
import { badRequest } from "../lib/errors";
import type { CollectionNames } from "../schema/names";
import { accountOf } from "./accounts";
import { defaultRoleOf } from "./roles";
import { inheritRolePermissions, presignUser } from "./users";

/**
 * An unsaved bus user; saving it mints its credential in the caller's transaction, or takes the one
 * presignBusUser minted for `id`.
 */
export function mintBusUser(tx: CoreApp, n: CollectionNames, organization: core.Record, roleId: string, name: string, id = ""): core.Record {
  const account = accountOf(tx, n, organization.id);
  if (!account || !account.getBool("active") || !organization.getBool("active")) {
    throw badRequest("no active bus account for the organization");
  }
  const role = roleId
    ? findRecord(tx, n.bus_roles, roleId)
    : defaultRoleOf(tx, n, organization.id);
  if (!role || role.getString("organization") !== organization.id) {
    throw badRequest(roleId ? "bus.role_id does not name a role of the organization" : "the organization has no default bus role");
  }
  const user = new Record(tx.findCachedCollectionByNameOrId(n.bus_users));
  if (id) user.set("id", id);
  user.load({ organization: organization.id, name, role: role.id, active: true });
  return user;
}

/**
 * Before the transaction: mints the credential of the user mintBusUser will make and keeps it
 * (lib/presigned.ts). Returns the id to create the user with, or undefined when nothing was minted: the
 * transaction then refuses or mints, as for every writer, so a failure here never fails the request.
 */
export function presignBusUser(app: CoreApp, n: CollectionNames, organization: core.Record, roleId: string, name: string): string | undefined {
  try {
    const user = mintBusUser(app, n, organization, roleId, name);
    inheritRolePermissions(user, findRecord(app, n.bus_roles, user.getString("role")));
    return presignUser(app, n, user);
  } catch {
    return undefined;
  }
}
