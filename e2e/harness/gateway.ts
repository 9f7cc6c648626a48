// A gateway site as an operator sets one up (issue 11): an organization with an owner, a gateway Thing
// created and enrolled with its one-time password, and `agent run` with gateway.enabled, so the agent
// writes the leaf config from GET /api/me/leaf-config and runs the pinned nats-server as its child.
// Devices of the organization connect to that leaf with their own creds.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { NatsConnection } from "@nats-io/transport-node";
import type PocketBase from "pocketbase";
import { enrollAgent, postThing, runEnrolled, type AgentProcess } from "./agent";
import { connectWithCreds, eventually, type PlatformWithBus } from "./bus";
import { freePorts } from "./ports";
import { REPO_ROOT } from "./process";
import { checkBecomes } from "./readiness";
import { createFleet } from "./fleet";
import { unique } from "./world";

export interface GatewayTimings {
  /** platform.sync_interval and gateway.leaf_config_interval. */
  refresh: string;
  /** gateway.uplink_restart_after. */
  uplinkRestartAfter: string;
  /** gateway.kv.mirrors and gateway.kv.relays (none by default). */
  kv?: { mirrors: string[]; relays: string[] };
}

/** Where the site runs: by default with the machine's own /etc/hosts. */
export interface SitePlace {
  /** The agent and its leaf see this file as /etc/hosts (e2e/harness/agent.ts). */
  hostsFile?: string;
}

export interface GatewaySite {
  su: PocketBase;
  operator: PocketBase;
  owner: PocketBase;
  organizationId: string;
  agent: AgentProcess;
  /** The agent's /ready and /metrics. */
  url: string;
  /** The site's bus (the leaf's client listener). */
  leafUrl: string;
  monitorPort: number;
  gatewayCode: string;
  gatewayBusUser: string;
  stateDir: string;
  /** A device of the organization: its own bus user (creds) at the hub. */
  device(): Promise<{ id: string; creds: string }>;
  /** Connects to the leaf with `creds`; the connection is closed by stop(). */
  atSite(creds: string): Promise<NatsConnection>;
  /** Connects to the hub with `creds`; the connection is closed by stop(). */
  atHub(creds: string): Promise<NatsConnection>;
  /** Waits until the agent's check `name` is in `state`. */
  ready(name: string, state: string, withinMs?: number): ReturnType<typeof checkBecomes>;
  stop(): Promise<void>;
}

export async function startGatewaySite(bus: Pick<PlatformWithBus, "platform" | "busUrl">, timings: GatewayTimings, place: SitePlace = {}): Promise<GatewaySite> {
  const scratch = mkdtempSync(join(tmpdir(), "agent-gateway-"));
  const open: NatsConnection[] = [];
  const { su, operator, owner, organizationId } = await createFleet(bus.platform, "Site fleet");
  const made = await postThing(owner, { name: unique("gateway"), bus: { mode: "auto" } });
  const gatewayBusUser = (await su.collection("things").getOne(made.id)).bus_user as string;
  const stateDir = join(scratch, "state");
  await enrollAgent(bus.platform.url, made, stateDir);
  const [listen, monitorPort] = await freePorts(2);
  const leafUrl = `nats://127.0.0.1:${listen}`;
  const { agent, url } = await runEnrolled(stateDir, {
    AGENT_PLATFORM_SYNC_INTERVAL: timings.refresh,
    AGENT_BUS_HEARTBEAT_INTERVAL: "1s",
    AGENT_OVERLAY_ENABLED: "false",
    AGENT_GATEWAY_ENABLED: "true",
    AGENT_GATEWAY_NATS_SERVER: join(REPO_ROOT, "bin/nats-server"),
    AGENT_GATEWAY_LISTEN: `127.0.0.1:${listen}`,
    AGENT_GATEWAY_MONITOR_PORT: String(monitorPort),
    AGENT_GATEWAY_LEAF_CONFIG_INTERVAL: timings.refresh,
    AGENT_GATEWAY_UPLINK_RESTART_AFTER: timings.uplinkRestartAfter,
    AGENT_GATEWAY_KV_MIRRORS: (timings.kv?.mirrors ?? []).join(" "),
    AGENT_GATEWAY_KV_RELAYS: (timings.kv?.relays ?? []).join(" "),
  }, place);
  return {
    su, operator, owner, organizationId, agent, url, leafUrl, monitorPort, gatewayCode: made.code, gatewayBusUser, stateDir,
    async device() {
      const user = await su.collection("bus_users").create({ organization: organizationId, name: unique("device") });
      return { id: user.id, creds: user.creds_file as string };
    },
    async atSite(creds) {
      const nc = await connectWithCreds(leafUrl, creds);
      open.push(nc);
      return nc;
    },
    async atHub(creds) {
      const nc = await connectWithCreds(bus.busUrl, creds);
      open.push(nc);
      return nc;
    },
    ready: (name, state, withinMs = 30_000) => checkBecomes(url, name, state, { path: "/ready", withinMs }),
    async stop() {
      for (const nc of open.splice(0)) await nc.close().catch(() => {});
      await agent.stop();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}

/** Whether a message published by `from` reaches `to` (both connected to the same bus). */
export async function flows(from: NatsConnection, to: NatsConnection, subject: string): Promise<boolean> {
  let got = false;
  const sub = to.subscribe(subject, { callback: () => void (got = true) });
  await to.flush();
  const arrived = await eventually(async () => {
    from.publish(subject, "site-local");
    await from.flush();
    await new Promise((r) => setTimeout(r, 100));
    return got;
  }, 5_000);
  sub.unsubscribe();
  return arrived;
}
