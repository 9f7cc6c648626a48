// A gateway's relay backlog drain (issue 11 items 4 and 7): with the hub's nats-server stopped, a site
// device writes 10,000 keys into a relayed bucket; the hub comes back; the time until the relay's
// backlog is empty is measured from the hub listening again and from the leaf's uplink attaching, and
// every key is then read back at the hub (0 lost). Three rounds, each rewriting every key. Printed, never
// asserted; the target is ≤ 60 s after the uplink returns.
import { Registry } from "prom-client";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startKvSync } from "../agent/src/gateway/kv/sync";
import { siteRelayStream } from "../agent/src/gateway/kv/wire";
import { createLogger } from "../agent/src/lib/log";
import { eventually } from "../e2e/harness/bus";
import { startKvSite } from "../e2e/harness/kv-site";
import { report } from "./stats";

const KEYS = 10_000;
const ROUNDS = 3;
const BUCKET = "drain";

const site = await startKvSite();
const stateDir = mkdtempSync(join(tmpdir(), "kv-drain-"));
await (await site.hub()).jsm.streams.add(siteRelayStream(BUCKET));
const kv = startKvSync({
  local: () => site.local.current(),
  onConnected: (listener) => site.local.onConnected(listener),
  hubDomain: site.config.hub_domain,
  mirrors: [],
  relays: [BUCKET],
  stateDir,
  logger: createLogger(() => undefined),
  registry: new Registry(),
  uplinkUp: () => site.uplinkUp(),
});
const pending = () => kv.statuses()[0]?.pending ?? -1;
const fromListening: number[] = [];
const fromUplink: number[] = [];
try {
  if (!(await eventually(async () => kv.statuses()[0]?.syncing === true, 30_000))) throw new Error("the relay never synced");
  for (let round = 0; round < ROUNDS; round++) {
    await site.bus.stopNats();
    if (!(await eventually(async () => !site.uplinkUp(), 20_000))) throw new Error("the uplink did not go down");
    const { js } = await site.site();
    for (let i = 0; i < KEYS; i += 500) {
      await Promise.all(Array.from({ length: Math.min(500, KEYS - i) }, (_, j) => js.publish(`$KV.${BUCKET}.k${i + j}`, `r${round}-${i + j}`)));
    }
    if (!(await eventually(async () => pending() === KEYS, 30_000))) throw new Error(`backlog ${pending()} after writing ${KEYS} keys`);

    await site.bus.startNats();
    const listening = performance.now();
    let attached = 0;
    const drained = await eventually(async () => {
      if (attached === 0 && site.uplinkUp()) attached = performance.now();
      return pending() === 0;
    }, 180_000);
    const done = performance.now();
    if (!drained) throw new Error(`backlog still ${pending()} after 180 s`);
    fromListening.push(done - listening);
    fromUplink.push(done - (attached || done));

    const { jsm } = await site.hub();
    let lost = 0;
    for (let i = 0; i < KEYS; i++) {
      const msg = await jsm.streams.getMessage(`KV_${BUCKET}`, { last_by_subj: `$KV.${BUCKET}.k${i}` });
      if (msg?.string() !== `r${round}-${i}`) lost++;
    }
    console.log(`round ${round + 1}: ${KEYS} keys drained ${(fromUplink[round] / 1000).toFixed(2)} s after the uplink attached (${((KEYS / fromUplink[round]) * 1000).toFixed(0)} keys/s), ${(fromListening[round] / 1000).toFixed(2)} s after the hub listened; lost at the hub: ${lost}`);
  }
  report(`relay drain of ${KEYS} keys, from the uplink attaching`, fromUplink, [50, 95]);
  report(`relay drain of ${KEYS} keys, from the hub listening`, fromListening, [50, 95]);
} finally {
  await kv.stop();
  await site.stop();
  rmSync(stateDir, { recursive: true, force: true });
}
