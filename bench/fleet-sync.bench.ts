// Issue 37 item 5: the largest fleet one control plane on this machine serves at the default poll intervals
// with sync p99 ≤ 250 ms, before and after the conditional reads, in the same run. A load generator speaks
// the agent's sync protocol (not 100,000 processes): the identity poll, the leaf-config poll of the share of
// Things that are gateways, and the token refresh, each in proportion to its rate per device. "before" is
// the old protocol (every poll unconditional and answered in full, at 60 s / 30 s, refresh once a day);
// "after" the new one (If-None-Match answered 304, at the defaults in agent/src/config/keys.ts, refresh
// spread between a day and two, 1.5 days on average). The closed-loop load is swept over client counts;
// the sustainable rate is the highest one whose p99 stays ≤ 250 ms, and a fleet is that rate divided by
// the requests a device makes per second. The platform holds 100,000 seeded Things besides the POOL Things
// that poll (each with its bus user and overlay host; their lookups are by primary key). Figures are
// printed, never asserted; the generator shares the machine's cores with the server.
import { parseDuration } from "../common/config/duration";
import { AGENT_KEYS } from "../agent/src/config/keys";
import { REFRESH_AFTER_MS } from "../agent/src/platform/sync";
import { REFRESH_SPREAD_MS } from "../agent/src/platform/spread";
import { postThing } from "../e2e/harness/agent";
import { startPlatform } from "../e2e/harness/platform";
import { buildWorld, client } from "../e2e/harness/world";
import { insertForOrganization, THINGS_INSERT, ROWS } from "./organization-rows";
import { load, type LoadRequest } from "./load";
import { percentile, report } from "./stats";
import { cpus, loadavg } from "node:os";

const POOL = Number(process.env.BENCH_FLEET_POOL ?? 100);
const GATEWAY_SHARE = Number(process.env.BENCH_FLEET_GATEWAY_SHARE ?? 0.1);
const CLIENTS = (process.env.BENCH_FLEET_CLIENTS ?? "2,4,8,16,32,64").split(",").map(Number);
const SECONDS_PER_STEP = Number(process.env.BENCH_FLEET_SECONDS ?? 6);
const P99_BOUND_MS = 250;
const TARGET_DEVICES = 100_000;

interface Protocol {
  name: string;
  syncIntervalS: number;
  leafIntervalS: number;
  refreshAfterS: number;
  conditional: boolean;
}

const BEFORE: Protocol = { name: "before (full polls, 60 s / 30 s)", syncIntervalS: 60, leafIntervalS: 30, refreshAfterS: 86_400, conditional: false };
const AFTER: Protocol = {
  name: `after (304 polls, ${AGENT_KEYS.info("platform.sync_interval").default} / ${AGENT_KEYS.info("gateway.leaf_config_interval").default})`,
  syncIntervalS: parseDuration(String(AGENT_KEYS.info("platform.sync_interval").default)) / 1000,
  leafIntervalS: parseDuration(String(AGENT_KEYS.info("gateway.leaf_config_interval").default)) / 1000,
  refreshAfterS: (REFRESH_AFTER_MS + REFRESH_SPREAD_MS / 2) / 1000,
  conditional: true,
};

/** The requests one device makes per second under `protocol`, by kind. */
function ratesOf(protocol: Protocol): { identity: number; leaf: number; refresh: number; total: number } {
  const identity = 1 / protocol.syncIntervalS;
  const leaf = GATEWAY_SHARE / protocol.leafIntervalS;
  const refresh = 1 / protocol.refreshAfterS;
  return { identity, leaf, refresh, total: identity + leaf + refresh };
}

interface Device {
  token: string;
  identityTag: string;
  leafTag: string;
}

const platform = await startPlatform({ env: { PLATFORM_BUS_LEAF_URL: "nats-leaf://127.0.0.1:7422", PLATFORM_BUS_PERSIST_DOMAIN: "hub" } });
try {
  const w = await buildWorld(platform);
  insertForOrganization(platform.dataDir, w.a.organization.id, [THINGS_INSERT]);
  const owner = await w.client("owner");
  const devices: Device[] = [];
  for (let i = 0; i < POOL; i++) {
    const made = await postThing(owner, {
      name: `fleet-${i}`,
      bus: { mode: "auto" },
      overlay: { mode: "auto", network_id: w.a.overlay_networks.id, overlay_ip: `10.42.${100 + (i >> 8)}.${(i & 255) + 1}` },
    });
    const pb = client(platform.url);
    await pb.collection("things").authWithPassword(made.email, made.password);
    devices.push({ token: pb.authStore.token, identityTag: "", leafTag: "" });
  }
  // The validators an agent holds after its first poll.
  for (const device of devices) {
    const headers = { Authorization: device.token };
    device.identityTag = (await fetch(`${platform.url}/api/me/identity`, { headers })).headers.get("etag") ?? "";
    device.leafTag = (await fetch(`${platform.url}/api/me/leaf-config`, { headers })).headers.get("etag") ?? "";
  }

  const accepts = (status: number) => status === 200 || status === 304;
  /** The protocol's next request: a kind drawn by its share of the device's rate, from a random device of the pool. */
  const nextOf = (protocol: Protocol) => {
    const rates = ratesOf(protocol);
    return (): LoadRequest => {
      const device = devices[Math.floor(Math.random() * devices.length)];
      const draw = Math.random() * rates.total;
      const conditional = (tag: string): Record<string, string> => (protocol.conditional ? { "If-None-Match": tag } : {});
      if (draw < rates.identity) return { path: "/api/me/identity", headers: { Authorization: device.token, ...conditional(device.identityTag) }, accepts };
      if (draw < rates.identity + rates.leaf) return { path: "/api/me/leaf-config", headers: { Authorization: device.token, ...conditional(device.leafTag) }, accepts };
      return { method: "POST", path: "/api/collections/things/auth-refresh", headers: { Authorization: device.token } };
    };
  };

  // Each route alone, conditional and not, at one client count: what a 304 saves; and the server's floor
  // (GET /api/health: no session, no query) on the same machine at the same moment.
  const floor = await load(platform.url, 8, 2_000, { path: "/api/health" });
  report(`GET /api/health (the floor), 8 clients, ${floor.perSecond.toFixed(0)} req/s, ${floor.errors} errors`, floor.latenciesMs, [50, 95, 99]);
  for (const [path, tagOf] of [["/api/me/identity", (d: Device) => d.identityTag], ["/api/me/leaf-config", (d: Device) => d.leafTag]] as const) {
    for (const conditional of [false, true]) {
      const next = (): LoadRequest => {
        const device = devices[Math.floor(Math.random() * devices.length)];
        return { path, headers: { Authorization: device.token, ...(conditional ? { "If-None-Match": tagOf(device) } : {}) }, accepts };
      };
      const run = await load(platform.url, 8, 2_000, next);
      report(`GET ${path} ${conditional ? "304 (If-None-Match)" : "200 (full)"}, 8 clients, ${run.perSecond.toFixed(0)} req/s, ${run.errors} errors`, run.latenciesMs, [50, 95, 99]);
    }
  }

  // The two protocols alternate at each client count, so both meet the same neighbours on a shared machine.
  const best = new Map<Protocol, { clients: number; perSecond: number; p: number[] }>();
  for (const protocol of [BEFORE, AFTER]) await load(platform.url, 8, 500, nextOf(protocol)); // warm-up
  for (const clients of CLIENTS) {
    for (const protocol of [BEFORE, AFTER]) {
      const next = nextOf(protocol);
      // Sized from a short probe so each step runs about SECONDS_PER_STEP.
      const probe = await load(platform.url, clients, clients * 20, next);
      const run = await load(platform.url, clients, Math.max(clients * 50, Math.round(probe.perSecond * SECONDS_PER_STEP)), next);
      const sorted = [...run.latenciesMs].sort((a, b) => a - b);
      const p = [50, 95, 99].map((q) => percentile(sorted, q));
      report(`${protocol.name}, ${clients} clients, ${run.perSecond.toFixed(0)} req/s, ${run.errors} errors`, run.latenciesMs, [50, 95, 99]);
      const kept = best.get(protocol);
      if (p[2] <= P99_BOUND_MS && run.errors === 0 && (!kept || run.perSecond > kept.perSecond)) best.set(protocol, { clients, perSecond: run.perSecond, p });
    }
  }
  const results = [BEFORE, AFTER].map((protocol) => {
    const kept = best.get(protocol);
    const rates = ratesOf(protocol);
    if (!kept) return `${protocol.name}: no client count kept p99 ≤ ${P99_BOUND_MS} ms`;
    const fleet = Math.floor(kept.perSecond / rates.total);
    const atTarget = TARGET_DEVICES * rates.total;
    return (
      `${protocol.name}: ${kept.perSecond.toFixed(0)} req/s sustained with p99 ≤ ${P99_BOUND_MS} ms (${kept.clients} clients: p50=${kept.p[0].toFixed(1)} p95=${kept.p[1].toFixed(1)} p99=${kept.p[2].toFixed(1)} ms); ` +
      `${rates.total.toFixed(5)} req/s per device -> ${fleet.toLocaleString("en-US")} devices; ${TARGET_DEVICES.toLocaleString("en-US")} devices need ${atTarget.toFixed(1)} req/s = ${((100 * atTarget) / kept.perSecond).toFixed(1)}% of it`
    );
  });
  console.log(`fleet sync, ${ROWS.toLocaleString("en-US")} Things seeded, ${POOL} polling, gateways ${GATEWAY_SHARE * 100}% (cores=${cpus().length}, load average ${loadavg()[0].toFixed(1)}):`);
  for (const line of results) console.log(`  ${line}`);
} finally {
  await platform.stop();
}
