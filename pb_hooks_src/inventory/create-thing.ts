// POST /api/org/things: a Thing and optionally its identities, in one transaction (spec 4.2).
import type { CreatedThing } from "../../common/inventory/create-thing";
import { findRecord } from "../lib/collections";
import { badRequest } from "../lib/errors";
import type { JsonObject } from "../lib/body";
import { randomPassword } from "../lib/random";
import { inArrivalOrder } from "../lib/arrival-order";
import { transaction } from "../lib/transaction";
import type { ActiveMembership } from "../tenancy/active";
import type { CollectionNames } from "../schema/names";
import { authorizeThingRequest, parseThingRequest, type ThingRequest } from "./request";
import { codeTaken, drawnCodeHolds, prepareThing, uniqueCode } from "./things";
import { attribute } from "../audit/actor";
import { mintBusUser, presignBusUser } from "../bus/things";
import { presignedUsers } from "../bus/users";
import { caOf } from "../overlay/ca";
import { HostError } from "../overlay/host-details";
import { placeHost, presignedHosts, presignHost } from "../overlay/hosts";

export function createThing(app: CoreApp, n: CollectionNames, caller: ActiveMembership, body: JsonObject): CreatedThing {
  const request = parseThingRequest(body);
  authorizeThingRequest(caller.role, request);
  const organization = caller.organization;
  // What needs nothing the transaction reads is done before it, so the write connection is not held for
  // it: the password's hash, and the bus user's and the overlay host's credentials (lib/presigned.ts),
  // which their hooks use if they were signed from exactly the rows as committed.
  const thing = new Record(app.findCachedCollectionByNameOrId(n.things));
  const password = randomPassword();
  thing.load({
    name: request.name,
    code: request.code,
    description: request.description,
    type: request.type,
    location: request.location,
    metadata: request.metadata ?? null,
    organization: organization.id,
    active: true,
  });
  thing.setPassword(password);
  attribute(thing, caller.user);
  // The code names the Thing's identities: drawn here for their credentials when the request has none,
  // and kept in the transaction only if it still holds there.
  const drawn = !request.code && mintsIdentity(request) && drawCode(app, n, thing);
  const code = thing.getString("code");
  const userId = request.bus.mode === "auto" ? presignBusUser(app, n, organization, request.bus.role_id, code) : undefined;
  const hostId = request.overlay.mode === "auto" ? presignHost(app, n, organization.id, request.overlay.network_id, request.overlay.overlay_ip, code) : undefined;
  const write = () =>
    transaction(app, (tx) => {
      requireOwned(tx, n.thing_types, request.type, organization, "type");
      requireOwned(tx, n.locations, request.location, organization, "location");
      if (request.code && codeTaken(tx, n, organization.id, request.code)) {
        throw badRequest("another Thing of the organization already uses this code");
      }
      if (drawn && !drawnCodeHolds(tx, n, thing)) thing.set("code", "");
      prepareThing(tx, n, thing);
      linkIdentities(tx, n, thing, request, caller, { user: userId ?? "", host: hostId ?? "" });
      tx.save(thing);
      return { id: thing.id, code: thing.getString("code"), email: thing.getString("email"), password };
    });
  try {
    // A creation that mints an identity holds the write connection ~12-15 ms, and concurrent ones waited
    // for it in random order (a p99 of seconds at 20 clients): they take their turns in arrival order.
    // One without holds it ~2 ms, less than the queue's sleep between looks would cost it.
    return mintsIdentity(request) ? inArrivalOrder("things.create.identities", write) : write();
  } finally {
    if (userId) presignedUsers.discard(userId);
    if (hostId) presignedHosts.discard(hostId);
  }
}

const mintsIdentity = (request: ThingRequest): boolean => request.bus.mode === "auto" || request.overlay.mode === "auto";

/** A free code under the type's prefix as read now, set on the Thing; false when none could be drawn (the transaction draws). */
function drawCode(app: CoreApp, n: CollectionNames, thing: core.Record): boolean {
  try {
    thing.set("code", uniqueCode(app, n, thing));
    return true;
  } catch {
    return false;
  }
}

/** Identity modes: `auto` mints a new identity, `link` verifies that the given one is the organization's. */
function linkIdentities(tx: CoreApp, n: CollectionNames, thing: core.Record, request: ThingRequest, caller: ActiveMembership, presignedIds: { user: string; host: string }): void {
  const organization = caller.organization;
  if (request.bus.mode === "auto") {
    const user = mintBusUser(tx, n, organization, request.bus.role_id, thing.getString("code"), presignedIds.user);
    attribute(user, caller.user);
    tx.save(user);
    thing.set("bus_user", user.id);
  }
  if (request.bus.mode === "link") {
    if (!request.bus.user_id) throw badRequest("bus.user_id is required for bus.mode link");
    requireOwned(tx, n.bus_users, request.bus.user_id, organization, "bus.user_id");
    thing.set("bus_user", request.bus.user_id);
  }
  if (request.overlay.mode === "auto") {
    const host = mintOverlayHost(tx, n, organization, request.overlay.network_id, request.overlay.overlay_ip, thing.getString("code"), presignedIds.host);
    attribute(host, caller.user);
    saveHost(tx, host);
    thing.set("overlay_host", host.id);
  }
  if (request.overlay.mode === "link") {
    if (!request.overlay.host_id) throw badRequest("overlay.host_id is required for overlay.mode link");
    requireOwned(tx, n.overlay_hosts, request.overlay.host_id, organization, "overlay.host_id");
    thing.set("overlay_host", request.overlay.host_id);
  }
}

/** Routes write with server privileges, so they restate the ownership check rules would make. */
function requireOwned(tx: CoreApp, collection: string, id: string, organization: core.Record, path: string): void {
  if (!id) return;
  const record = findRecord(tx, collection, id);
  if (!record || record.getString("organization") !== organization.id) {
    throw badRequest(`${path} does not name a record of the organization`);
  }
}

/**
 * overlay.mode auto: a host named after the Thing's code. The checks the host's own hooks make are made here
 * first, so their refusals reach the caller as this route's 400s; the save then signs, or takes the
 * certificate signed before the transaction (overlay/hosts.ts).
 */
function mintOverlayHost(tx: CoreApp, n: CollectionNames, organization: core.Record, networkId: string, overlayIp: string, code: string, id: string): core.Record {
  if (!networkId) throw badRequest("overlay.network_id is required for overlay.mode auto");
  if (!overlayIp) throw badRequest("overlay.overlay_ip is required for overlay.mode auto");
  if (!caOf(tx, n, organization.id)) throw badRequest("no overlay certificate authority for the organization");
  const network = findRecord(tx, n.overlay_networks, networkId);
  if (!network || network.getString("organization") !== organization.id) throw badRequest("overlay.network_id does not name a record of the organization");
  try {
    placeHost(tx, n, organization.id, networkId, overlayIp);
  } catch (err) {
    if (err instanceof HostError) throw badRequest(err.message.startsWith("overlay_ip") ? `overlay.${err.message}` : err.message);
    throw err;
  }
  const host = new Record(tx.findCachedCollectionByNameOrId(n.overlay_hosts));
  // The id the route's presigned certificate is kept under (lib/presigned.ts), if any.
  if (id) host.set("id", id);
  host.load({ organization: organization.id, network: networkId, name: code, overlay_ip: overlayIp, groups: [], active: true });
  return host;
}

/** A refusal from the host's hooks crosses Go and loses its class: answered as a 400 with its message. */
function saveHost(tx: CoreApp, host: core.Record): void {
  try {
    tx.save(host);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw badRequest(`overlay host: ${message}`);
  }
}
