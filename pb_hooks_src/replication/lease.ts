/// <reference path="../../build/types/types.d.ts" />
// The write lease, PocketBase side (issue 35 item 2): whether this process needs it (replication into the
// bus), the sidecar's reports kept in the store every VM shares, and the refusal a write gets without it.
// Small on purpose: the global middleware (serving.js) reads it on every write request.
import { NO_LEASE_YET, leaseRefusal, parseLeaseState, type LeaseState } from "./lease-rule";

const STATE_KEY = "platform.replication.lease";
const REQUIRED_KEY = "platform.replication.lease.required";

/** Set once at serve's start when replication goes into the bus: from then on, writes need the lease. */
export function requireLease(app: CoreApp): void {
  app.store().set(REQUIRED_KEY, true);
}

/** Why a write must be refused now; undefined when this process needs no lease, or holds it. */
export function writeRefusal(app: CoreApp): string | undefined {
  if (app.store().get(REQUIRED_KEY) !== true) return undefined;
  return leaseRefusal((app.store().get(STATE_KEY) as LeaseState | undefined) ?? NO_LEASE_YET, Date.now());
}

export type LeaseChange = "taken" | "lost" | "same";

/** Keeps the sidecar's report and says whether the lease changed hands; undefined when the body is not one. */
export function recordLeaseReport(app: CoreApp, body: unknown): LeaseChange | undefined {
  const state = parseLeaseState(body);
  if (!state) return undefined;
  let before: LeaseState | undefined;
  // Under the store's lock: of two reports at once, one alone sees the change. A missing key reaches
  // the function as Go's nil, which goja gives as null.
  app.store().setFunc(STATE_KEY, (old) => {
    before = (old ?? undefined) as LeaseState | undefined;
    return state;
  });
  // The first report is a change either way: until then the lease was unknown.
  if (before !== undefined && before.held === state.held) return "same";
  console.log(state.held ? "replication: this control plane holds the write lease" : `replication: writes refused: ${state.detail}`);
  return state.held ? "taken" : "lost";
}

/** The lease as last reported, for the status command and readiness. */
export function leaseState(app: CoreApp): LeaseState | undefined {
  return app.store().get(STATE_KEY) as LeaseState | undefined;
}
