// HTTP glue of the inventory routes.
import { readJsonObject, respond } from "../lib/request";
import { currentConfig } from "../config/runtime";
import { collectionNames } from "../schema/names";
import { activeMembership } from "../tenancy/active";
import { createThing } from "./create-thing";

/** POST /api/org/things */
export function createThingRoute(e: core.RequestEvent): void {
  respond(e, () => {
    const n = collectionNames(currentConfig());
    const body = readJsonObject(e);
    const caller = activeMembership(e.app, n, e.auth);
    return { status: 200, body: createThing(e.app, n, caller, body) };
  });
}
