import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../lib/log";
import { startKvSync } from "./sync";

describe("startKvSync without a local connection", () => {
  it("reports every declared bucket, refuses a name NATS cannot take, and removes its series on stop", async () => {
    const registry = new Registry();
    const kv = startKvSync({
      local: () => undefined,
      onConnected: () => undefined,
      hubDomain: "hub",
      mirrors: ["cfg", "bad.name"],
      relays: ["orders"],
      stateDir: "/nonexistent",
      logger: createLogger(() => undefined),
      registry,
      uplinkUp: () => false,
    });
    expect(kv.statuses()).toEqual([
      { bucket: "cfg", direction: "hub_to_site", syncing: false, reason: "not connected to the local leaf" },
      { bucket: "bad.name", direction: "hub_to_site", syncing: false, reason: "not a bucket name NATS accepts (letters, digits, - and _ only)" },
      { bucket: "orders", direction: "site_to_hub", syncing: false, reason: "not connected to the local leaf", pending: 0, backlogAgeMs: 0 },
    ]);
    const outcome = await kv.check.run();
    expect(outcome.state).toBe("warn");
    expect(outcome.detail).toMatch(/^the agent is not connected to the local leaf \(see bus\); mirror cfg: .*; mirror bad\.name: not syncing: not a bucket name/);
    const text = await registry.metrics();
    expect(text).toContain('agent_edge_sync_up{bucket="cfg",direction="hub_to_site"} 0');
    expect(text).toContain('agent_edge_sync_up{bucket="orders",direction="site_to_hub"} 0');
    expect(text).toContain('agent_edge_relay_pending{bucket="orders"} 0');
    expect(text).not.toContain('agent_edge_relay_pending{bucket="cfg"}');
    await kv.stop();
    expect(await registry.metrics()).not.toContain("agent_edge_");
  });
});
