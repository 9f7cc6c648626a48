// The `overlay` readiness check (spec 4.4: warn when enabled but not running, on a cached config, or with
// no tunnels; skipped when the overlay is off). Answers from the manager's state, never probing.
import type { AgentCheck, CheckOutcome } from "../health/check";
import type { OverlayStatus } from "./manager";

export interface OverlayCheckOptions {
  /** overlay.enabled */
  enabled: boolean;
  status(): OverlayStatus;
  /** Where the running config is (in fix texts). */
  configPath: string;
}

export function overlayOutcome(enabled: boolean, s: OverlayStatus, configPath: string): CheckOutcome {
  // Skipped is not ready's concern, but a report names a fix for every state but ok: say what would make
  // the check apply, rather than the report's generic "read the detail and the log".
  if (!enabled) return { state: "skipped", detail: "overlay.enabled is false", fix: "Nothing to do unless this device should join the overlay: then set overlay.enabled to true." };
  if (!s.configured) {
    return {
      state: "skipped",
      detail: "the Thing has no overlay host",
      fix: "Nothing to do unless this Thing should join the overlay: then an owner or admin gives it an overlay host, and the agent applies its config at the next platform sync.",
    };
  }
  if (s.deferred !== null) {
    return { state: "warn", detail: s.deferred, fix: "install nebula, or set overlay.nebula in the agent's config to its path; the agent tries the config again by itself" };
  }
  if (!s.running) {
    return { state: "warn", detail: s.exit ?? s.rejected ?? "nebula is not running", fix: `nebula -test -config ${configPath}; read the agent's log for nebula's own lines` };
  }
  if (s.rejected !== null) {
    return { state: "warn", detail: s.rejected, fix: "check the lighthouses' public_endpoint and that they run; the next config the platform serves is tried again" };
  }
  if (s.cached) {
    return { state: "warn", detail: "running the cached overlay config: the platform has not served one since the agent started", fix: "see the platform_sync check" };
  }
  if (s.unproven) {
    return { state: "warn", detail: "no lighthouse handshake since the overlay config was applied", fix: "check the lighthouses' public_endpoint and that they run" };
  }
  if (s.tunnels === 0) return { state: "warn", detail: "nebula runs but holds no tunnel", fix: "check that the lighthouses run and are reachable on their public_endpoint" };
  return { state: "ok", detail: `${s.tunnels} tunnel${s.tunnels === 1 ? "" : "s"}` };
}

export function overlayCheck(options: OverlayCheckOptions): AgentCheck {
  return {
    name: "overlay",
    run: async () => overlayOutcome(options.enabled, options.status(), options.configPath),
  };
}
