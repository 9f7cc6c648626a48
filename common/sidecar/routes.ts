// The routes through which the sidecar reaches PocketBase (registered in main.pb.ts): the readiness
// prober's two, the one it calls once when PocketBase first answers, the news of a hub node back, the write
// lease's state, the credential upkeep's schedule, and an account's pending revocations to sign. One place
// for the paths, shared by the sidecar (sidecar/prober.ts, sidecar/started.ts) and the request metrics,
// which leave the sidecar's traffic out. Pure.
export const SIDECAR_ROUTE_PREFIX = "/api/platform/";
export const CHECK_PATH = `${SIDECAR_ROUTE_PREFIX}readiness/checks/`;
export const SNAPSHOT_PATH = `${SIDECAR_ROUTE_PREFIX}readiness/snapshot`;
export const STARTED_PATH = `${SIDECAR_ROUTE_PREFIX}started`;
export const NODE_BACK_PATH = `${SIDECAR_ROUTE_PREFIX}bus/node-back`;
export const LEASE_PATH = `${SIDECAR_ROUTE_PREFIX}lease`;
export const UPKEEP_PATH = `${SIDECAR_ROUTE_PREFIX}bus/upkeep`;
export const SIGN_CLAIM_PATH = `${SIDECAR_ROUTE_PREFIX}bus/sign-claim`;
