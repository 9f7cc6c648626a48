// HTTP glue of the inventory routes.
import { readJsonObject, respond } from "../lib/request";
import { currentConfig } from "../config/runtime";
import { collectionNames } from "../schema/names";
import { activeMembership } from "../tenancy/active";
import { forbidden } from "../lib/errors";
import { createThing } from "./create-thing";
import { parseInclude } from "./identity-view";
import { ownIdentity } from "./own-identity";

/** POST /api/org/things */
export function createThingRoute(e: core.RequestEvent): void {
  respond(e, () => {
    const n = collectionNames(currentConfig());
    const body = readJsonObject(e);
    const caller = activeMembership(e.app, n, e.auth);
    return { status: 200, body: createThing(e.app, n, caller, body) };
  });
}

/** GET /api/me/identity (things session; `?include=creds_file,config_yaml` for key material) */
export function ownIdentityRoute(e: core.RequestEvent): void {
  respond(e, () => {
    const n = collectionNames(currentConfig());
    if (!e.auth || e.auth.collection().name !== n.things) throw forbidden("this route needs a Thing session");
    const include = parseInclude(e.request?.url?.query().get("include") ?? "");
    e.response.header().set("Cache-Control", "no-store");
    return { status: 200, body: ownIdentity(e.app, n, e.auth, include) };
  });
}
