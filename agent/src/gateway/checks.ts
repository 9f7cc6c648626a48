// The gateway's checks (spec 4.4): bus_local (fail: the local leaf does not serve), hub_uplink (warn,
// never fail: islanded), sync (warn: the leaf configuration cannot be refreshed or the hub's identity
// changed; the key-value part is added by the kv sync). The root cause is reported once: hub_uplink
// skips while the leaf itself is down, which bus_local reports.
import { worstState } from "../../../common/readiness/states";
import type { AgentCheck, CheckOutcome } from "../health/check";
import type { LeafState } from "./leaf-process";
import type { UplinkStatus } from "./uplink";

const at = (ms: number) => new Date(ms).toISOString();

export function busLocalCheck(leaf: { state(): LeafState }, localUrl: string, accepts: () => Promise<boolean>): AgentCheck {
  return {
    name: "bus_local",
    async run() {
      const state = leaf.state();
      if (!state.running) {
        const next = state.nextStartAt !== undefined ? `; next start in ${Math.max(0, Math.ceil((state.nextStartAt - Date.now()) / 1000))} s` : "";
        return {
          state: "fail",
          detail: `the local leaf server is not running: ${state.reason}${next}`,
          fix: "Read the agent log (\"leaf server\" lines); the agent restarts the leaf by itself with back-off. Before the first configuration the gateway needs enrollment (agent enroll) and the platform.",
        };
      }
      if (!(await accepts())) {
        return { state: "fail", detail: `the local leaf server (pid ${state.pid}) does not accept connections on ${localUrl}`, fix: "Read the agent log (\"leaf server\" lines); check gateway.listen." };
      }
      return { state: "ok", detail: `the local leaf server (pid ${state.pid}) serves ${localUrl}` };
    },
  };
}

export function hubUplinkCheck(leaf: { state(): LeafState }, uplink: { status(): UplinkStatus }, hubLeafUrl: () => string | undefined): AgentCheck {
  return {
    name: "hub_uplink",
    async run(): Promise<CheckOutcome> {
      if (!leaf.state().running) return { state: "skipped", detail: "the local leaf server is not running (see bus_local)" };
      const status = uplink.status();
      if (!status.known) return { state: "skipped", detail: `uplink unknown: ${status.reason}` };
      if (status.connected) return { state: "ok", detail: `connected to the hub${status.hub ? ` at ${status.hub}` : ""} since ${at(status.since)}` };
      const parts = [`no uplink to the hub since ${at(status.since)} (islanded: local traffic continues)`];
      if (status.hubPortAccepts === false) parts.push("the hub's leaf port does not accept connections");
      if (status.remedy) parts.push(`leaf ${status.remedy.kind === "reload" ? "reloaded" : "restarted"} at ${at(status.remedy.at)} to bring it back`);
      return {
        state: "warn",
        detail: parts.join("; "),
        fix: `Check the hub and the network path to ${hubLeafUrl() ?? "hub_leaf_url"}. While the hub's port accepts and the uplink stays away for gateway.uplink_restart_after, the agent reloads, then restarts the leaf.`,
      };
    },
  };
}

/** What the leaf-config refresh knows, for the sync check. */
export interface RefreshStatus {
  /** Unix ms of the last answer (200 or 304). */
  lastSuccessAt?: number;
  /** The last failure, cleared by a success. */
  failure?: { status: number; message: string; at: number };
  /** Pinned fields the hub serves differently. */
  drift: string[];
}

/** The leaf-config part of the sync check. */
export function leafConfigOutcome(status: RefreshStatus, reconfigureCommand: string): CheckOutcome {
  const problems: CheckOutcome[] = [];
  if (status.drift.length > 0) {
    problems.push({
      state: "warn",
      detail: `the hub's leaf configuration changed (${status.drift.join(", ")}) and is not applied: the leaf runs on the values it was configured with`,
      fix: `Re-run the leaf configuration: ${reconfigureCommand} (the leaf restarts on the hub's current values).`,
    });
  }
  const failure = status.failure;
  const since = status.lastSuccessAt !== undefined ? at(status.lastSuccessAt) : "start";
  const unheard = `revocations and suspensions decided at the hub since ${since} do not reach this site`;
  if (failure && (failure.status === 401 || failure.status === 403)) {
    problems.push({
      state: "warn",
      detail: `the leaf configuration cannot be refreshed (${failure.message}): ${unheard}`,
      fix: "The gateway's Thing is deactivated or its session lapsed: re-enroll it (agent enroll --platform URL --email <thing e-mail>), or stop the gateway if it is decommissioned.",
    });
  } else if (failure && failure.status > 0) {
    // The platform answered, with nothing this agent can use: no retry mends that, unlike a network gap.
    problems.push({
      state: "warn",
      detail: `the platform's leaf configuration cannot be used (${failure.message}): ${unheard}`,
      fix: "An answer without hub_leaf_url means the control plane has no bus.leaf_url (PLATFORM_BUS_LEAF_URL): an operator sets it. A 404 means the gateway's Thing has no bus identity: an owner links one.",
    });
  } else if (failure && status.lastSuccessAt === undefined) {
    problems.push({ state: "skipped", detail: `the leaf configuration could not be read yet (${failure.message})` });
  } else if (failure) {
    problems.push({ state: "ok", detail: `the leaf configuration was not re-read at ${at(failure.at)} (${failure.message}); the leaf runs on the last one applied` });
  }
  const warned = problems.filter((p) => p.state === "warn");
  if (warned.length > 0) return { state: "warn", detail: warned.map((p) => p.detail).join("; "), fix: warned.map((p) => p.fix).join(" ") };
  if (problems.length > 0) return problems[0];
  if (status.lastSuccessAt === undefined) return { state: "skipped", detail: "the leaf configuration has not been read yet" };
  return { state: "ok", detail: `leaf configuration current as of ${at(status.lastSuccessAt)}` };
}

/** One `sync` check from several parts (the leaf config, the kv sync): the worst state, the details of the parts in that state. */
export function combinedOutcome(parts: CheckOutcome[]): CheckOutcome {
  const worst = worstState(parts.map((p) => p.state));
  const same = parts.filter((p) => p.state === worst);
  const fixes = same.map((p) => p.fix).filter((f): f is string => !!f);
  return { state: worst, detail: same.map((p) => p.detail).filter(Boolean).join("; ") || undefined, fix: fixes.length ? fixes.join(" ") : undefined };
}
