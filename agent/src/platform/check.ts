// platform_sync (spec 4.4, warn): no recent successful credential sync with the platform. A Thing's
// session lapses after 7 days without one (8.1); this warns long before: after three sync intervals
// without success (three minutes at the default 60 s), when the token is within a day of expiry, and at
// once on a 401/403 (the Thing deactivated or its session invalid: only a new enrollment helps). A
// suspended identity is reported too, since the bus or overlay cannot work until it is re-activated.
// Skipped when the bus creds are configured outside the platform (bus.creds).
import type { AgentCheck, CheckOutcome } from "../health/check";
import { formatDuration } from "../../../common/readiness/duration-text";
import type { SyncStatus } from "./sync";

export const STALE_AFTER_INTERVALS = 3;
export const EXPIRY_WARNING_MS = 86_400_000;
export const NOT_ENROLLED_FIX = "agent enroll --platform <control plane URL> --email <the Thing's e-mail> (the running agent picks the session up)";

export interface PlatformSyncCheckOptions {
  /**
   * The sync's state; "external" when the credentials do not come from the platform (skipped);
   * "not-enrolled" when no session exists yet (warn: the agent waits for `agent enroll`).
   */
  status: "external" | (() => SyncStatus | "not-enrolled");
  intervalMs: number;
  now?: () => number;
}

export function platformSyncCheck(options: PlatformSyncCheckOptions): AgentCheck {
  const now = options.now ?? Date.now;
  return {
    name: "platform_sync",
    run: async () => {
      if (options.status === "external") return { state: "skipped", detail: "bus credentials are configured outside the platform (bus.creds)" };
      const status = options.status();
      if (status === "not-enrolled") return { state: "warn", detail: "not enrolled: no Thing session yet", fix: NOT_ENROLLED_FIX };
      return judge(status, options.intervalMs, now());
    },
  };
}

/** The check's verdict from the sync's status (pure, unit-tested). */
export function judge(s: SyncStatus, intervalMs: number, now: number): CheckOutcome {
  const reenroll = `Set a new password on the Thing (owner or admin), then run: agent enroll --platform ${s.platform} --email ${s.email}`;
  if (s.lastFailure?.kind === "unauthorized") {
    return { state: "warn", detail: `the platform refused the Thing's session (${s.lastFailure.status}): the Thing is deactivated or its session lapsed`, fix: reenroll };
  }
  if (s.tokenExpiresAt - now < EXPIRY_WARNING_MS) {
    return { state: "warn", detail: s.tokenExpiresAt > now ? `the Thing's session expires in ${relative(s.tokenExpiresAt - now)}` : "the Thing's session has expired", fix: `Restore the connection to ${s.platform}; if the session lapses: ${reenroll}` };
  }
  const since = s.lastSuccessAt ?? s.startedAt;
  if (now - since > STALE_AFTER_INTERVALS * intervalMs && s.lastFailure) {
    const what = s.lastSuccessAt === undefined ? "no sync since start" : `last sync ${relative(now - s.lastSuccessAt)} ago`;
    return { state: "warn", detail: `${what}; ${s.consecutiveFailures} attempts failed: ${s.lastFailure.message}`, fix: `Check that ${s.platform} is reachable from this host` };
  }
  if (s.busUserActive === false) return { state: "warn", detail: "the bus identity is suspended at the platform", fix: "An owner or admin re-activates the Thing's bus user" };
  if (s.overlayHostActive === false) return { state: "warn", detail: "the overlay host is deactivated at the platform", fix: "An owner or admin re-activates the Thing's overlay host" };
  if (s.lastSuccessAt === undefined) return { state: "ok", detail: "first sync pending" };
  return { state: "ok", detail: `last sync ${relative(now - s.lastSuccessAt)} ago` };
}

/** Whole seconds in Go's duration form ("3m0s", "26h40m0s"), as the control plane's readiness writes them. */
function relative(ms: number): string {
  return formatDuration(Math.max(0, Math.round(ms / 1000) * 1000));
}
