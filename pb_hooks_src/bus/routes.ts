// HTTP glue of the bus routes.
import { currentConfig } from "../config/runtime";
import { forbidden } from "../lib/errors";
import { readJsonObject, respond } from "../lib/request";
import { collectionNames } from "../schema/names";
import { activeMembership } from "../tenancy/active";
import { manageSigningKeys } from "./keys";
import { leafConfig } from "./leaf";
import { rotateOwnCredential } from "./rotate";

/** GET /api/me/leaf-config (things session) */
export function leafConfigRoute(e: core.RequestEvent): void {
  respond(e, () => {
    const config = currentConfig();
    const n = collectionNames(config);
    if (!e.auth || e.auth.collection().name !== n.things) throw forbidden("this route needs a Thing session");
    e.response.header().set("Cache-Control", "no-store");
    return { status: 200, body: leafConfig(e.app, n, config, e.auth) };
  });
}

/** POST /api/me/bus-creds/rotate (users or things session, no body) */
export function rotateRoute(e: core.RequestEvent): void {
  respond(e, () => {
    const n = collectionNames(currentConfig());
    readJsonObject(e, true);
    const caller = e.auth;
    if (!caller) throw forbidden("this route needs a session");
    return { status: 200, body: rotateOwnCredential(e.app, n, caller) };
  });
}

/** POST /api/org/bus-account/keys (owner/admin) */
export function signingKeysRoute(e: core.RequestEvent): void {
  respond(e, () => {
    const n = collectionNames(currentConfig());
    const body = readJsonObject(e);
    const caller = activeMembership(e.app, n, e.auth);
    return { status: 200, body: manageSigningKeys(e.app, n, caller, body) };
  });
}
