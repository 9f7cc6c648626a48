// POST /api/me/bus-creds/rotate: re-sign the caller's own bus credential (same key) by writing exactly
// one field, `regenerate`, on its linked bus user (spec 4.2).
import { findRecord, membershipOf } from "../lib/collections";
import { badRequest, forbidden, notFound } from "../lib/errors";
import type { CollectionNames } from "../schema/names";
import { attribute } from "../observability/actor";

export interface Rotated {
  rotated: true;
  bus_user: string;
}

export function rotateOwnCredential(app: CoreApp, n: CollectionNames, caller: core.Record): Rotated {
  const user = linkedBusUser(app, n, caller);
  if (!user.getBool("active")) throw forbidden("the linked bus identity is suspended");
  user.set("regenerate", true);
  attribute(user, caller);
  app.save(user);
  return { rotated: true, bus_user: user.id };
}

function linkedBusUser(app: CoreApp, n: CollectionNames, caller: core.Record): core.Record {
  let busUserId: string;
  if (caller.collection().name === n.things) {
    busUserId = caller.getString("bus_user");
  } else {
    const organization = caller.getString("current_organization");
    if (!organization) throw badRequest("no active organization: set current_organization first");
    const membership = membershipOf(app, n, caller.id, organization);
    if (!membership) throw notFound("no membership in the active organization");
    busUserId = membership.getString("bus_user");
  }
  const user = findRecord(app, n.bus_users, busUserId);
  if (!user) throw notFound("no bus identity is linked");
  return user;
}
