// HTTP glue of the inventory routes.
import { readJsonObject, respond } from "../lib/request";
import { currentConfig } from "../config/runtime";
import { collectionNames } from "../schema/names";
import { activeMembership } from "../tenancy/active";
import { forbidden } from "../lib/errors";
import { createThing } from "./create-thing";
import { parseInclude } from "./identity-view";
import { ownIdentity, ownIdentityTag } from "./own-identity";
import { conditionalAnswer } from "../lib/row-validator";

/** POST /api/org/things */
export function createThingRoute(e: core.RequestEvent): void {
  respond(e, () => {
    const n = collectionNames(currentConfig());
    const body = readJsonObject(e);
    const caller = activeMembership(e.app, n, e.auth);
    return { status: 200, body: createThing(e.app, n, caller, body) };
  });
}

/**
 * GET /api/me/identity (things session; `?include=creds_file,config_yaml` for key material). Carries a
 * cheap ETag (ownIdentityTag); a poll whose If-None-Match names it answers 304 with nothing built.
 */
export function ownIdentityRoute(e: core.RequestEvent): void {
  respond(e, () => {
    const n = collectionNames(currentConfig());
    const thing = e.auth;
    if (!thing || thing.collection().name !== n.things) throw forbidden("this route needs a Thing session");
    const include = parseInclude(e.request?.url?.query().get("include") ?? "");
    return conditionalAnswer(e, ownIdentityTag(e.app, n, thing, include), () => ownIdentity(e.app, n, thing, include));
  });
}
