// The write lease's rule (pure): only the control plane holding the lease in the bus accepts writes
// (issue 35 item 2). The sidecar holds and renews it (sidecar/lease.ts) and reports each outcome; a report
// carries `untilMs`, past which the holder stops writing even without a word from the sidecar: it is set
// from before the renewal was sent, one TTL on, less a margin, so it passes before the entry in the bus
// lapses and another control plane could take it.

import type { LeaseReport } from "../../common/sidecar/protocol";

export type LeaseState = LeaseReport;

export const NO_LEASE_YET: LeaseState = { held: false, untilMs: 0, holder: "", detail: "the write lease has not been taken yet" };

/** Why a write must be refused now, or undefined when it may go ahead. */
export function leaseRefusal(state: LeaseState, nowMs: number): string | undefined {
  if (state.held && nowMs < state.untilMs) return undefined;
  // Who holds it and why stay in serve's log: the answer goes to anyone who asks.
  const why = state.held ? "its write lease lapsed without a renewal" : state.holder ? "another control plane holds the write lease" : "it does not hold the write lease";
  return `this control plane does not accept writes: ${why}. Another control plane may be the primary (docs/operations.md "Disaster recovery")`;
}

/** A lease report from the sidecar, checked field by field; undefined when it is not one. */
export function parseLeaseState(value: unknown): LeaseState | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { held, untilMs, holder, detail } = value as Record<string, unknown>;
  if (typeof held !== "boolean" || !Number.isSafeInteger(untilMs) || typeof holder !== "string" || typeof detail !== "string") return undefined;
  return { held, untilMs: untilMs as number, holder: holder.slice(0, 200), detail: detail.slice(0, 500) };
}
