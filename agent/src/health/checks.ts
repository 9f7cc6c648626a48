// Every readiness check the agent can report (spec 3.3, 4.4), by the name /ready, `agent health` and
// agent_check_state show, with the module that judges it. A check's name is one of these (Check.name), so
// a new check is listed here or does not compile. What trips each: agent/README.md "Checks and /ready".
export const AGENT_CHECKS = {
  /** Every agent: the system telemetry's collections (telemetry.enabled). */
  task_metrics: "telemetry/system.ts",
  /** Every agent: its own bus connection. */
  bus: "bus/checks.ts",
  /** Every agent: persistence usable on the connected server. */
  persistence: "bus/checks.ts",
  /** Every agent with an overlay host: nebula running on a proven config, with tunnels. */
  overlay: "overlay/check.ts",
  /** Every agent whose credentials come from the platform: a recent successful sync. */
  platform_sync: "platform/check.ts",
  /** Gateways: the site's leaf server runs and greets. */
  bus_local: "gateway/checks.ts",
  /** Gateways: the leaf's uplink to the hub. */
  hub_uplink: "gateway/checks.ts",
  /** Gateways: the leaf fields applied, and the key-value mirrors and relays (gateway/kv/sync.ts). */
  sync: "gateway/component.ts",
} as const;

export type AgentCheckName = keyof typeof AGENT_CHECKS;
