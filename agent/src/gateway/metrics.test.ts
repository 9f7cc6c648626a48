import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { registerEdgeMetrics } from "./metrics";
import type { LeafMonitor } from "./monitor";

const scrape = async (serves: boolean, monitor: LeafMonitor) => {
  const registry = new Registry();
  registerEdgeMetrics(registry, async () => serves, monitor);
  return registry.metrics();
};

describe("agent_edge_* series", () => {
  it("come from the leaf's monitoring port when it answers", async () => {
    const text = await scrape(true, { leaf: async () => ({ connections: 3, persistenceBytes: 4096 }), uplink: async () => ({ connected: false }) });
    expect(text).toMatch(/^agent_edge_bus_connected 1$/m);
    expect(text).toMatch(/^agent_edge_bus_connections 3$/m);
    expect(text).toMatch(/^agent_edge_hub_uplink_connected 0$/m);
    expect(text).toMatch(/^agent_edge_persistence_bytes 4096$/m);
  });
  it("are omitted, not zeroed, when it does not answer; agent_edge_bus_connected is then 0", async () => {
    const text = await scrape(false, { leaf: async () => undefined, uplink: async () => undefined });
    expect(text).toMatch(/^agent_edge_bus_connected 0$/m);
    for (const name of ["agent_edge_bus_connections", "agent_edge_hub_uplink_connected", "agent_edge_persistence_bytes"]) {
      expect(text).not.toMatch(new RegExp(`^${name} `, "m"));
    }
  });
});
