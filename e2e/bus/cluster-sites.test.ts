// Sites on a hub of three nodes (issue 34 items 3 and 5). bus.leaf_url names one host name with an address
// per hub node: here the gateways' own /etc/hosts (a mount namespace, e2e/harness/agent.ts), in production a
// DNS name with a record per node. nats-server dials a random address of the name at each attempt, so a
// leaf whose node dies reattaches to another, while it keeps dialling only what the platform published
// (ignore_discovered_servers, decision 284). Two gateway sites attach; the node one of them is attached to
// is SIGKILLed; the site is back on another node within 30 s, and its site-local clients exchange messages
// throughout without a loss, a disconnect or a reconnect.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { NatsConnection } from "@nats-io/transport-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NODES, hostsFileNamingEveryNode, nodeOfLeaf, startPlatformWithCluster, type PlatformWithCluster } from "../harness/cluster";
import { connectWithCreds, eventually } from "../harness/bus";
import { flows, startGatewaySite, type GatewaySite } from "../harness/gateway";
import { checkOf } from "../harness/readiness";

/** A name under .test (RFC 2606): it resolves nowhere but in the hosts file written here. */
const HUB_NAME = "hub-nodes.test";
/** Issue 34 item 3. */
const REATTACH_BOUND_MS = 30_000;

const scratch = mkdtempSync(join(tmpdir(), "cluster-sites-"));
let hub: PlatformWithCluster;
const sites: GatewaySite[] = [];
const open: NatsConnection[] = [];

const nodeOfSite = (site: GatewaySite) => nodeOfLeaf(hub, site.gatewayCode);

async function atNode(index: number, creds: string): Promise<NatsConnection> {
  const nc = await connectWithCreds(hub.nodeUrl(index), creds);
  open.push(nc);
  return nc;
}

beforeAll(async () => {
  hub = await startPlatformWithCluster({ addressPerNode: true, leafHostName: HUB_NAME });
  const hostsFile = hostsFileNamingEveryNode(hub, HUB_NAME, scratch);
  for (let s = 0; s < 2; s++) sites.push(await startGatewaySite({ platform: hub.platform, busUrl: hub.nodeUrl(0) }, { refresh: "2s", uplinkRestartAfter: "60s" }, { hostsFile }));
  for (const site of sites) await site.ready("hub_uplink", "ok", 60_000);
}, 240_000);

afterAll(async () => {
  await Promise.all(open.map((nc) => nc.close().catch(() => undefined)));
  for (const site of sites) await site.stop();
  await hub?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe("gateway sites on a hub of three nodes", () => {
  it("attach through the one name served as hub_leaf_url, and carry messages from any hub node", async () => {
    for (const site of sites) {
      const config = (await site.ready("hub_uplink", "ok")).body;
      expect(checkOf(config, "hub_uplink").detail).toMatch(/127\.0\.0\.[123]:/);
      const node = await nodeOfSite(site);
      expect(node, `${site.gatewayCode} attached to no node`).toBeDefined();
      const atSite = await site.atSite((await site.device()).creds);
      for (let index = 0; index < NODES; index++) expect(await flows(await atNode(index, (await site.device()).creds), atSite, `from.hub.${index}`), `from node ${index + 1}`).toBe(true);
    }
  });

  it("the node a site is attached to dies: the site is on another node within 30 s, and its local clients never notice", async () => {
    const [site, other] = sites;
    const node = await nodeOfSite(site);
    if (node === undefined) throw new Error("the site is attached to no node");
    const otherNode = await nodeOfSite(other);

    // Site-local traffic runs throughout: a message every 20 ms, each one counted at the other client.
    const publisher = await site.atSite((await site.device()).creds);
    const subscriber = await site.atSite((await site.device()).creds);
    const events: string[] = [];
    for (const nc of [publisher, subscriber]) {
      void (async () => {
        for await (const status of nc.status()) if (status.type === "disconnect" || status.type === "reconnect") events.push(status.type);
      })();
    }
    const received: number[] = [];
    subscriber.subscribe("site.local", { callback: (_err, msg) => void received.push(Number(msg.string())) });
    await subscriber.flush();
    let sent = 0;
    const stream = setInterval(() => publisher.publish("site.local", String(sent++)), 20);

    let reattachedMs: number | undefined;
    try {
      await new Promise((resolve) => setTimeout(resolve, 500));
      await hub.killNode(node);
      const killed = Date.now();
      const moved = await eventually(async () => {
        const now = await nodeOfSite(site);
        return now !== undefined && now !== node;
      }, REATTACH_BOUND_MS);
      reattachedMs = Date.now() - killed;
      expect(moved, `not attached to another node ${reattachedMs} ms after the kill`).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    } finally {
      clearInterval(stream);
      await publisher.flush();
      await eventually(async () => received.length >= sent, 2_000);
      await hub.startNode(node);
    }
    expect(received).toEqual(Array.from({ length: sent }, (_, i) => i));
    expect(sent).toBeGreaterThan(50);
    expect(events).toEqual([]);
    console.log(`site reattached ${reattachedMs} ms after its node was killed`);

    // Traffic from the hub reaches the site again, through the node it is attached to now.
    const now = await nodeOfSite(site);
    if (now === undefined) throw new Error("the site left its new node");
    expect(await flows(await atNode(now, (await site.device()).creds), subscriber, "from.hub.after")).toBe(true);
    await site.ready("hub_uplink", "ok", 10_000);
    // A site attached elsewhere was never moved.
    if (otherNode !== undefined && otherNode !== node) expect(await nodeOfSite(other)).toBe(otherNode);
  });
});
