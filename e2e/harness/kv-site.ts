// A hub (the control plane plus the nats-server `bus export` configured) and one site: a gateway Thing's
// leaf server built from its GET /api/me/leaf-config, with the agent's connection to the leaf
// (agent/src/bus/connection.ts, the Thing's creds), a hub client in the same account, and the leaf's
// uplink state read from its loopback /leafz. For the key-value sync tests and the drain bench.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import { startBusConnection, type BusConnection } from "../../agent/src/bus/connection";
import { createLogger } from "../../agent/src/lib/log";
import type { LeafConfig } from "../../common/bus/leaf-config";
import { connectWithCreds, eventually, startPlatformWithBus, type PlatformWithBus } from "./bus";
import { gatewayLeafConfig, startSiteLeaf } from "./leaf";
import type { NatsServer } from "./nats";
import { buildWorld, unique, type World } from "./world";

export interface KvSite {
  bus: PlatformWithBus;
  world: World;
  config: LeafConfig;
  leaf: NatsServer;
  /** The agent's connection to the leaf, as a gateway agent holds it. */
  local: BusConnection;
  /** Whether the leaf's uplink to the hub is attached (polled every 200 ms). */
  uplinkUp(): boolean;
  /** A JetStream client and manager at the hub, in the site's account (reopened after a hub restart). */
  hub(): Promise<{ nc: NatsConnection; js: JetStreamClient; jsm: JetStreamManager }>;
  /** The same at the site (a device connected to the leaf). */
  site(): Promise<{ nc: NatsConnection; js: JetStreamClient; jsm: JetStreamManager }>;
  stop(): Promise<void>;
}

export async function startKvSite(): Promise<KvSite> {
  const bus = await startPlatformWithBus();
  const world = await buildWorld(bus.platform);
  const dir = mkdtempSync(join(tmpdir(), "kv-site-"));
  const { config } = await gatewayLeafConfig(bus.platform.url, await world.client("owner"));
  // A dead uplink is noticed within seconds (the tests stop the hub).
  const leaf = await startSiteLeaf(config, dir, { interval: "2s", max: 2 });

  let attached = false;
  const poll = setInterval(() => {
    fetch(`${leaf.monitorUrl}/leafz`)
      .then((r) => r.json() as Promise<{ leafnodes?: number }>)
      .then((leafz) => void (attached = (leafz.leafnodes ?? 0) > 0))
      .catch(() => void (attached = false));
  }, 200);
  const local = startBusConnection({ servers: [leaf.url], name: config.code, logger: createLogger(() => undefined), onAuthError: () => undefined });
  local.useCreds(config.creds);

  const colleague = await world.su.collection("bus_users").create({ organization: world.a.organization.id, name: unique("hub-user") });
  const open: NatsConnection[] = [];
  const opener = (url: () => string, creds: string) => {
    let current: NatsConnection | undefined;
    return async () => {
      if (!current || current.isClosed()) {
        current = await connectWithCreds(url(), creds);
        open.push(current);
      }
      return { nc: current, js: jetstream(current), jsm: await jetstreamManager(current) };
    };
  };
  const site: KvSite = {
    bus,
    world,
    config,
    leaf,
    local,
    uplinkUp: () => attached,
    hub: opener(() => bus.busUrl, colleague.creds_file),
    site: opener(() => leaf.url, config.creds),
    async stop() {
      clearInterval(poll);
      await Promise.all(open.map((nc) => nc.close().catch(() => undefined)));
      await local.stop();
      await leaf.stop();
      await bus.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  if (!(await eventually(async () => attached && local.current() !== undefined, 15_000))) throw new Error(`the leaf did not attach to the hub: ${leaf.log()}`);
  return site;
}
