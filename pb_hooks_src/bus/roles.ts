// Bus roles: permission templates a bus user copies at creation. One per organization may be its default,
// the role of a Thing created with `bus.mode = auto` and no `role_id` (spec 4.2).
import { findFirst } from "../lib/collections";
import { badRequest } from "../lib/errors";
import type { CollectionNames } from "../schema/names";

export function defaultRoleOf(app: CoreApp, n: CollectionNames, organizationId: string): core.Record | undefined {
  return findFirst(app, n.bus_roles, "organization = {:org} && is_default = true", { org: organizationId });
}

/**
 * onRecordValidate of a role: a second default names the first. The unique index alone answered
 * "organization: Value must be unique.", which says nothing of defaults (it still settles a race).
 */
export function refuseSecondDefaultRole(app: CoreApp, n: CollectionNames, role: core.Record): void {
  if (!role.getBool("is_default")) return;
  const current = defaultRoleOf(app, n, role.getString("organization"));
  if (current && current.id !== role.id) {
    throw badRequest(`the organization's default role is "${current.getString("name")}" already: clear its is_default first`);
  }
}
