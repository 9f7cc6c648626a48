// The gateway's series (spec 4.4) in the agent's registry: agent_edge_bus_connected is the agent's own
// look at the local leaf (0 when it does not serve: the "site bus down" alert); the others come from the
// leaf's loopback monitoring port and are omitted, not zeroed, when it does not answer.
import { Gauge, type Registry } from "prom-client";
import type { LeafMonitor } from "./monitor";

/** A gauge whose sample is left out of the scrape when `read` answers undefined. */
class OptionalGauge extends Gauge {
  constructor(
    registry: Registry,
    name: string,
    help: string,
    private readonly read: () => Promise<number | undefined>,
  ) {
    super({ name, help, registers: [registry] });
  }

  override async get() {
    const value = await this.read();
    if (value !== undefined) this.set(value);
    const metric = await super.get();
    return value === undefined ? { ...metric, values: [] } : metric;
  }
}

export function registerEdgeMetrics(registry: Registry, leafServes: () => Promise<boolean>, monitor: LeafMonitor): void {
  new Gauge({
    name: "agent_edge_bus_connected",
    help: "1 when the local leaf server accepts connections, 0 when it does not (site bus down).",
    registers: [registry],
    async collect() {
      this.set((await leafServes()) ? 1 : 0);
    },
  });
  new OptionalGauge(registry, "agent_edge_bus_connections", "Client connections to the local leaf server (its /varz).", async () => (await monitor.leaf())?.connections);
  new OptionalGauge(registry, "agent_edge_hub_uplink_connected", "1 when the leaf's uplink to the hub is connected, 0 when islanded (its /leafz).", async () => {
    const uplink = await monitor.uplink();
    return uplink === undefined ? undefined : uplink.connected ? 1 : 0;
  });
  new OptionalGauge(registry, "agent_edge_persistence_bytes", "Bytes the leaf's JetStream store holds, file and memory (its /varz).", async () => (await monitor.leaf())?.persistenceBytes);
}
