// A gateway's uplink across credential renewals (issue 36 item 1): credentials of 8 s, the agent's leaf
// config refreshed every second. The renewed creds reach the leaf's creds file while the old one is still
// valid; nats-server cannot re-authenticate a live leaf connection, so the hub closes the uplink when the
// old credential expires and the leaf re-dials at once with the file's renewed one. Neither the agent nor
// its leaf restarts. The uplink's state is sampled every 100 ms from the leaf's monitor over three
// lifetimes, and its longest gap printed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPlatformWithBus, type PlatformWithBus } from "../harness/bus";
import { flows, startGatewaySite, type GatewaySite } from "../harness/gateway";

const LIFETIME_S = 8;

let bus: PlatformWithBus;
let site: GatewaySite;

beforeAll(async () => {
  bus = await startPlatformWithBus({ env: { PLATFORM_BUS_USER_CREDENTIAL_LIFETIME: `${LIFETIME_S}s` } });
  site = await startGatewaySite(bus, { refresh: "1s", uplinkRestartAfter: "60s" });
}, 120_000);
afterAll(async () => {
  await site?.stop();
  await bus?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function leafz(): Promise<{ up: boolean; start: string }> {
  const monitor = `http://127.0.0.1:${site.monitorPort}`;
  const [leafs, varz] = await Promise.all([
    fetch(`${monitor}/leafz`).then((r) => r.json() as Promise<{ leafnodes?: number }>),
    fetch(`${monitor}/varz`).then((r) => r.json() as Promise<{ start: string }>),
  ]);
  return { up: (leafs.leafnodes ?? 0) > 0, start: varz.start };
}

describe("a gateway's uplink across renewals", () => {
  it("comes back at each expiry on the renewed creds, the agent and its leaf never restarted", async () => {
    const deadline = Date.now() + 30_000;
    while (!(await leafz().catch(() => ({ up: false, start: "" }))).up && Date.now() < deadline) await sleep(200);
    const first = await leafz();
    expect(first.up).toBe(true);
    const pid = site.agent.child.pid;
    const started = Date.now();
    const samples: { at: number; up: boolean }[] = [];
    while (Date.now() - started < 3 * LIFETIME_S * 1000) {
      const now = await leafz().catch(() => undefined);
      samples.push({ at: Date.now(), up: now?.up ?? false });
      if (now) expect(now.start).toBe(first.start);
      await sleep(100);
    }
    let longestGapMs = 0;
    let downSince: number | undefined;
    for (const sample of samples) {
      if (!sample.up) downSince ??= sample.at;
      else if (downSince !== undefined) {
        longestGapMs = Math.max(longestGapMs, sample.at - downSince);
        downSince = undefined;
      }
    }
    const upShare = samples.filter((s) => s.up).length / samples.length;
    console.log(`gateway uplink over ${3 * LIFETIME_S} s of ${LIFETIME_S} s credentials: up ${(upShare * 100).toFixed(1)} % of samples, longest gap ${longestGapMs} ms`);
    expect(site.agent.child.pid).toBe(pid);
    expect(site.agent.child.exitCode).toBeNull();
    // A gap per expiry, about the leaf's reconnect interval (1 s); at the default lifetime, one a fortnight.
    expect(longestGapMs).toBeLessThan(3_000);
    expect(upShare).toBeGreaterThan(0.7);
    // Up again at the end, carrying traffic on the renewed credential: hub to site.
    expect(samples[samples.length - 1].up || (await leafz()).up).toBe(true);
    const hub = await site.atHub((await site.device()).creds);
    const local = await site.atSite((await site.device()).creds);
    expect(await flows(hub, local, "renewal.check")).toBe(true);
  }, 90_000);
});
