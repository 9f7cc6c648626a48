// A site's reattachment after its hub node dies (issue 34 item 6): one gateway site on a hub of three
// nodes, bus.leaf_url a name with an address per node (the gateway's own /etc/hosts, as in
// e2e/bus/cluster-sites.test.ts). Each trial SIGKILLs the node the site is attached to and times until
// another node lists the leaf; the node is started again before the next trial. Printed, never asserted.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventually } from "../e2e/harness/bus";
import { hostsFileNamingEveryNode, nodeOfLeaf, startPlatformWithCluster } from "../e2e/harness/cluster";
import { startGatewaySite } from "../e2e/harness/gateway";
import { report } from "./stats";

const TRIALS = Number(process.env.BENCH_REATTACH_TRIALS ?? 10);
const HUB_NAME = "hub-nodes.test";
const GIVE_UP_MS = 60_000;

const scratch = mkdtempSync(join(tmpdir(), "bench-sites-"));
const hub = await startPlatformWithCluster({ addressPerNode: true, leafHostName: HUB_NAME });
try {
  const site = await startGatewaySite({ platform: hub.platform, busUrl: hub.nodeUrl(0) }, { refresh: "2s", uplinkRestartAfter: "120s" }, { hostsFile: hostsFileNamingEveryNode(hub, HUB_NAME, scratch) });
  try {
    await site.ready("hub_uplink", "ok", 60_000);
    const reattachMs: number[] = [];
    for (let trial = 0; trial < TRIALS; trial++) {
      const node = await nodeOfLeaf(hub, site.gatewayCode);
      if (node === undefined) throw new Error(`trial ${trial + 1}: the site is attached to no node`);
      await hub.killNode(node);
      const killed = performance.now();
      const moved = await eventually(async () => ![undefined, node].includes(await nodeOfLeaf(hub, site.gatewayCode)), GIVE_UP_MS);
      if (!moved) throw new Error(`trial ${trial + 1}: not reattached within ${GIVE_UP_MS} ms`);
      reattachMs.push(performance.now() - killed);
      await hub.startNode(node);
      await eventually(() => hub.routesUp(node), 20_000);
    }
    report(`site reattachment after its hub node is SIGKILLed (leaf on another of 3 nodes, looked up every 50 ms)`, reattachMs, [50, 95, 99]);
  } finally {
    await site.stop();
  }
} finally {
  await hub.stop();
  rmSync(scratch, { recursive: true, force: true });
}
