// The bus identity of a Thing created with bus.mode auto (spec 4.2): a new bus user of the organization's
// active account, with the given role or the organization's default role.
import { findFirst, findRecord } from "../lib/collections";
import { badRequest } from "../lib/errors";
import type { CollectionNames } from "../schema/names";
import { accountOf } from "./accounts";

/** An unsaved bus user; saving it mints its credential in the caller's transaction. */
export function mintBusUser(tx: CoreApp, n: CollectionNames, organization: core.Record, roleId: string, name: string): core.Record {
  const account = accountOf(tx, n, organization.id);
  if (!account || !account.getBool("active") || !organization.getBool("active")) {
    throw badRequest("no active bus account for the organization");
  }
  const role = roleId
    ? findRecord(tx, n.bus_roles, roleId)
    : findFirst(tx, n.bus_roles, "organization = {:org} && is_default = true", { org: organization.id });
  if (!role || role.getString("organization") !== organization.id) {
    throw badRequest(roleId ? "bus.role_id does not name a role of the organization" : "the organization has no default bus role");
  }
  const user = new Record(tx.findCollectionByNameOrId(n.bus_users));
  user.load({ organization: organization.id, name, role: role.id, active: true });
  return user;
}
