// Resolution of the caller's active organization for /api/org/* routes (spec 4 rules 1 and 3).
import { findRecord, membershipOf } from "../lib/collections";
import { badRequest, forbidden } from "../lib/errors";
import { isRole, type Role } from "../lib/roles";
import type { CollectionNames } from "../schema/names";

export interface ActiveMembership {
  user: core.Record;
  organization: core.Record;
  membership: core.Record;
  role: Role;
}

export function activeMembership(app: CoreApp, n: CollectionNames, auth: core.Record | undefined): ActiveMembership {
  if (!auth || auth.collection().name !== n.users) throw forbidden("this route needs a user session");
  const organizationId = auth.getString("current_organization");
  if (!organizationId) throw badRequest("no active organization: set current_organization first");
  const organization = findRecord(app, n.organizations, organizationId);
  const membership = organization && membershipOf(app, n, auth.id, organizationId);
  const role = membership ? membership.getString("role") : "";
  if (!organization || !membership || !isRole(role)) throw forbidden("not a member of the active organization");
  return { user: auth, organization, membership, role };
}
