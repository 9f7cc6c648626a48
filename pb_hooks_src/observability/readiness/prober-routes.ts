// The two routes through which the sidecar's prober reaches PocketBase (registered in main.pb.ts). One
// place for the paths, shared by the prober (sidecar/prober.ts) and the request metrics, which leave the
// prober's traffic out. Pure.
export const PROBER_ROUTE_PREFIX = "/api/platform/readiness/";
export const CHECK_PATH = `${PROBER_ROUTE_PREFIX}checks/`;
export const SNAPSHOT_PATH = `${PROBER_ROUTE_PREFIX}snapshot`;
