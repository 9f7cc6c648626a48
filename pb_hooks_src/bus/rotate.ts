// POST /api/me/bus-creds/rotate: re-sign the caller's own bus credential (same key) by writing exactly
// one field, `regenerate`, on its linked bus user (spec 4.2).
import { findRecord, membershipOf } from "../lib/collections";
import { badRequest, forbidden, notFound } from "../lib/errors";
import { transaction } from "../lib/transaction";
import type { CollectionNames } from "../schema/names";
import { attribute } from "../audit/actor";

export interface Rotated {
  rotated: true;
  bus_user: string;
}

/**
 * In one transaction, so the link and `active` are read as committed: a suspension that commits first is
 * answered with its 403, not with the refusal the bus user's own update would raise.
 */
export function rotateOwnCredential(app: CoreApp, n: CollectionNames, caller: core.Record): Rotated {
  return transaction(app, (tx) => {
    const user = linkedBusUser(tx, n, caller);
    if (!user.getBool("active")) throw forbidden("the linked bus identity is suspended");
    user.set("regenerate", true);
    attribute(user, caller);
    tx.save(user);
    return { rotated: true, bus_user: user.id };
  });
}

function linkedBusUser(app: CoreApp, n: CollectionNames, caller: core.Record): core.Record {
  // The caller's row as committed: its session carries the row as it was when the token was checked.
  const self = findRecord(app, caller.collection().name, caller.id) ?? caller;
  let busUserId: string;
  if (self.collection().name === n.things) {
    busUserId = self.getString("bus_user");
  } else {
    const organization = self.getString("current_organization");
    if (!organization) throw badRequest("no active organization: set current_organization first");
    const membership = membershipOf(app, n, self.id, organization);
    if (!membership) throw notFound("no membership in the active organization");
    busUserId = membership.getString("bus_user");
  }
  const user = findRecord(app, n.bus_users, busUserId);
  if (!user) throw notFound("no bus identity is linked");
  return user;
}
