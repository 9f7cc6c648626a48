// What main.pb.js and pb_migrations/ call for the bus (platform.bus.*).
export { leafConfigRoute, rotateRoute, signingKeysRoute } from "./routes";
export { RECONCILE_JOB, RECONCILE_SCHEDULE, reconcileAccounts } from "./reconcile";
