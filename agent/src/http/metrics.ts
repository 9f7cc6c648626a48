// GET /metrics of the agent (spec 4.3, 4.4): the last snapshot of the health registry as prom-client
// series. A scrape reads the snapshot; it never runs a check. Components may add their own series to
// `registry` (the gateway role adds agent_edge_*).
import { Gauge, Registry } from "prom-client";
import { CHECK_STATES } from "../../../common/readiness/states";
import type { Snapshot } from "../health/registry";

export interface AgentMetrics {
  readonly registry: Registry;
  render(): Promise<{ contentType: string; text: string }>;
}

export function createAgentMetrics(health: { snapshot(): Snapshot | undefined }, version: string): AgentMetrics {
  const registry = new Registry();
  new Gauge({
    name: "agent_ready",
    help: "1 when no readiness check fails in the last probe; 0 when one fails or none has been probed yet.",
    registers: [registry],
    collect() {
      this.set(health.snapshot()?.ready === true ? 1 : 0);
    },
  });
  new Gauge({
    name: "agent_check_state",
    help: "State set of each readiness check in the last probe: 1 for its state, 0 for the others.",
    labelNames: ["name", "state"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const result of health.snapshot()?.results ?? []) {
        for (const state of CHECK_STATES) this.set({ name: result.name, state }, result.state === state ? 1 : 0);
      }
    },
  });
  const TIMESTAMP = "agent_check_timestamp_seconds";
  const timestamp = new Gauge({
    name: TIMESTAMP,
    help: "Unix time the last probe completed; an alert fires when it stops advancing.",
    // Registered at the first probe: before it the series is absent, not a misleading 0 (1970).
    registers: [],
    collect() {
      const probedAt = health.snapshot()?.probedAt;
      if (probedAt !== undefined) this.set(probedAt.getTime() / 1000);
    },
  });
  const build = new Gauge({ name: "agent_build_info", help: "The agent's version; always 1.", labelNames: ["version"] as const, registers: [registry] });
  build.set({ version }, 1);

  return {
    registry,
    async render() {
      if (health.snapshot() !== undefined && registry.getSingleMetric(TIMESTAMP) === undefined) registry.registerMetric(timestamp);
      return { contentType: registry.contentType, text: await registry.metrics() };
    },
  };
}
