// The agent's `bus` and `persistence` checks (spec 4.4). Both answer from the connection's state; the
// persistence check makes one bounded look at the hub's JetStream over the open connection.
import type { AgentCheck, CheckOutcome } from "../health/check";
import type { BusConnection, BusState } from "./connection";
import type { PersistenceProbe } from "./persistence";

/** What the bus connection dials: the hub (bus.servers or the platform host), or a gateway's own leaf. */
export type BusDials = "hub" | "leaf";

export function busCheck(connection: Pick<BusConnection, "state">, dials: BusDials): AgentCheck {
  return { name: "bus", run: async () => busOutcome(connection.state(), dials) };
}

type DownKind = Exclude<BusState, { connected: true }>["kind"];

const FIX: Record<DownKind, string> = {
  no_creds: "Enroll the agent (agent enroll --platform URL --email <thing e-mail>) or set bus.creds.",
  connecting: "The agent is making its first connection; if this stays, read the agent log (\"bus:\" lines).",
  authorization:
    "The hub refuses this Thing's bus credential (revoked, suspended, or its organization suspended): an owner or admin reactivates it in the console; the agent adopts new credentials by itself.",
  refused: "Nothing listens at the hub address: check bus.servers (or the platform host, port 4222) and that the hub runs.",
  timeout: "The hub does not answer in time: check the network path and firewall to bus.servers.",
  other: "Read this check's detail and the agent log; the agent keeps retrying with back-off.",
  stopped: "The agent is stopping.",
};

// A gateway's connection goes to its own leaf, never to the hub: where nothing listens or answers there,
// the leaf is the place to look (bus_local), not bus.servers, which the gateway does not dial.
const LEAF_FIX: Partial<Record<DownKind, string>> = {
  refused: "Nothing listens at this gateway's local leaf (gateway.listen): see the bus_local check; the agent starts and restarts the leaf itself.",
  timeout: "This gateway's local leaf (gateway.listen) does not answer in time: see the bus_local check and the agent log (\"leaf server\" lines).",
};

export function busOutcome(state: BusState, dials: BusDials): CheckOutcome {
  if (state.connected) return { state: "ok", detail: `connected to ${state.server}` };
  const fix = (dials === "leaf" ? LEAF_FIX[state.kind] : undefined) ?? FIX[state.kind];
  return { state: "fail", detail: `${state.kind === "no_creds" ? "" : `${state.kind}: `}${state.reason}`, fix };
}

export function persistenceCheck(connection: Pick<BusConnection, "current">, probe: Pick<PersistenceProbe, "look">, telemetrySubject: string): AgentCheck {
  return {
    name: "persistence",
    async run() {
      const nc = connection.current();
      // The root cause is the bus check's to report, not a second warning here.
      if (!nc) return { state: "skipped", detail: "not connected to the hub (see the bus check)" };
      const view = await probe.look(nc);
      if (!view.usable) {
        return {
          state: "warn",
          detail: `bus persistence unusable for this account: ${view.reason}; telemetry is not stored`,
          fix: "Ask the platform operator to give the organization's bus account persistence (max_persist_disk_storage or max_persist_memory_storage not 0) on a hub with JetStream.",
        };
      }
      return {
        state: "ok",
        detail: view.stream
          ? `telemetry stored in stream ${view.stream}`
          : `no stream captures ${telemetrySubject}: telemetry is published, not stored`,
      };
    },
  };
}
