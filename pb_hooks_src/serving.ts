// The small hooks library for the hot paths: what runs on every request (the global middleware), what
// load balancers poll (GET /api/ready) and what runs once per record of a listed page (onRecordEnrich: the bus status, the overlay hosts' current blocklist) or once per page (a tenant list's total). PocketBase runs handlers in a pool of VMs and creates a one-off VM
// when all are busy; requiring the full library there means compiling ~340 kB per such request, which is
// what made /api/ready's tail slow under 100 concurrent clients (docs/operations.md "Figures").
export { serveCounted, serveUncounted } from "./middleware";
export { readyRoute } from "./observability/readiness/ready-route";
export { withCurrentBlocklist } from "./overlay/current-blocklist";
export { withBusStatus } from "./bus/enrich";
export { withCountedTotal } from "./tenancy/list-totals";
