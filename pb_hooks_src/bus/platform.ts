// What main.pb.js and pb_migrations/ call for the bus (platform.bus.*).
import { currentConfig } from "../config/runtime";
import { collectionNames } from "../schema/names";
import { busStatusCollections } from "./enrich";

export { leafConfigRoute, rotateRoute, signingKeysRoute } from "./routes";
export { RECONCILE_JOB, RECONCILE_SCHEDULE, reconcileAccounts, reconcileAtStart } from "./reconcile";

// Tags of the bus status enrich hook: PocketBase nests a page's enrich hooks, each holding a hook VM, so a
// hook bound to every collection would hold one per record of every page read.
export const statusCollections = (): string[] => busStatusCollections(collectionNames(currentConfig()));
