// What each declared bucket reports, and the gateway's `sync` check over all of them (spec 4.4: warn
// when a declared bucket is not syncing or a relay has a backlog; the detail names the bucket).
import type { CheckOutcome } from "../../health/check";

export type Direction = "hub_to_site" | "site_to_hub";

export interface BucketStatus {
  bucket: string;
  direction: Direction;
  /** Wired and in contact with the hub: a mirror following it, a relay able to write to it. */
  syncing: boolean;
  /** Why not, when not syncing. */
  reason?: string;
  /** Relays: keys changed at the site not yet confirmed at the hub. */
  pending?: number;
  /** Relays: how long the backlog has not been empty. */
  backlogAgeMs?: number;
}

/**
 * A backlog younger than this is keys in flight, not a problem: a relay keeping up with steady site
 * writes is rarely at zero, and `sync` must not flap with every probe.
 */
export const BACKLOG_GRACE_MS = 10_000;

const KIND: Record<Direction, string> = { hub_to_site: "mirror", site_to_hub: "relay" };

export function syncOutcome(statuses: BucketStatus[], localConnected: boolean): CheckOutcome {
  if (statuses.length === 0) return { state: "skipped", detail: "no key-value bucket declared (gateway.kv.mirrors, gateway.kv.relays)" };
  const problems: string[] = [];
  for (const status of statuses) {
    const pending = status.pending ?? 0;
    const backlogged = pending > 0 && (status.backlogAgeMs ?? 0) >= BACKLOG_GRACE_MS;
    if (status.syncing && !backlogged) continue;
    const parts: string[] = [];
    if (!status.syncing) parts.push(`not syncing: ${status.reason ?? "unknown"}`);
    if (pending > 0) parts.push(`${pending} key(s) pending`);
    problems.push(`${KIND[status.direction]} ${status.bucket}: ${parts.join(", ")}`);
  }
  if (problems.length === 0) return { state: "ok", detail: `${statuses.length} bucket(s) syncing` };
  return {
    state: "warn",
    // The agent's own connection is `bus`'s; bus_local is the leaf itself, which may run and refuse the agent.
    detail: `${localConnected ? "" : "the agent is not connected to the local leaf (see bus); "}${problems.join("; ")}`,
    fix: "Read this check's detail: a bucket waiting for the hub needs the bucket created at the hub (the agent picks it up by itself); a backlog drains once the hub uplink is back (see hub_uplink).",
  };
}
