// Throughput and latency as clients are added (issue 9, targets 3 and 5), against the real platform with
// its bus, as the launcher runs it. Figures are printed side by side, never asserted:
//   1. POST /api/org/things without identities, and with bus auto + overlay auto, at 1, 4, 20 and 50
//      concurrent clients (per second, p50/p95/p99, errors). The counts are measured in rounds, forward
//      then backward: on this shared machine one run's rate moves ±10-15 % from minute to minute, and the
//      table grows as the bench goes, so a count measured once, always after the others, says more about
//      when it ran than about its concurrency. A count's rate is the median of its rounds, with their range;
//      its latencies are those of all its rounds.
//   2. GET /api/ready and GET /api/health under 100 concurrent clients: every request crosses the hooks'
//      global middleware, so /api/health is the platform's per-request floor; and, as the floor of that
//      floor on this machine, GET /api/health of the stock binary with no hooks and no migrations.
// The launcher's hook VM pool applies (PB_HOOKS_POOL overrides it, to compare sizes).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startPlatformWithBus } from "../e2e/harness/bus";
import { startPlatform } from "../e2e/harness/platform";
import { PASSWORD, client, createMember, createOrganization } from "../e2e/harness/world";
import { load, type LoadResult } from "./load";
import { median, report } from "./stats";

const CLIENT_COUNTS = [1, 4, 20, 50];
const CREATES_PER_ROUND = Number(process.env.BENCH_CREATES ?? "300");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? "3");
const READY_CLIENTS = 100;
const READY_REQUESTS = 20_000;

function print(name: string, result: LoadResult): void {
  report(`${name}: ${Math.round(result.perSecond)}/s, errors=${result.errors}`, result.latenciesMs, [50, 95, 99]);
}

/** The median rate of a count's rounds, printed with their range, its errors and its latencies over all rounds. */
function printRounds(name: string, rounds: LoadResult[]): number {
  const rates = rounds.map((r) => r.perSecond).sort((a, b) => a - b);
  const rate = median(rates);
  const errors = rounds.reduce((sum, r) => sum + r.errors, 0);
  const range = rates.map((r) => Math.round(r)).join(", ");
  report(`${name}: ${Math.round(rate)}/s (rounds ${range}), errors=${errors}`, rounds.flatMap((r) => r.latenciesMs), [50, 95, 99]);
  return rate;
}

const bus = await startPlatformWithBus();
try {
  const booted = await bus.platform.command(["bootstrap", "--email", "bench-operator@example.test", "--password", "bench-password-1"]);
  if (booted.code !== 0) throw new Error(`bootstrap failed: ${booted.stderr}`);
  const su = await bus.platform.superuser();
  const org = await createOrganization(su, "Bench");
  const network = await su.collection("overlay_networks").create({ organization: org.id, name: "bench", cidr: "10.64.0.0/10" });
  const owner = client(bus.platform.url);
  await owner.collection("users").authWithPassword((await createMember(su, org.id, "owner")).email as string, PASSWORD);
  const headers = { authorization: owner.authStore.token };

  let serial = 0;
  const plain = () => ({ method: "POST", path: "/api/org/things", headers, body: () => JSON.stringify({ name: `plain ${serial++}` }) });
  let host = 0;
  const withIdentities = () => {
    const n = ++host;
    const ip = `10.${64 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;
    return {
      method: "POST",
      path: "/api/org/things",
      headers,
      body: () => JSON.stringify({ name: `full ${n}`, bus: { mode: "auto" }, overlay: { mode: "auto", network_id: network.id, overlay_ip: ip } }),
    };
  };

  for (const [label, next] of [["no identities", plain], ["bus auto + overlay auto", withIdentities]] as const) {
    // Each pooled VM loads the hooks library on its first handler (~3-5 ms); a long-running server has
    // paid that long ago, so every client count is warmed at its own concurrency first.
    for (const clients of CLIENT_COUNTS) await load(bus.platform.url, clients, clients * 4, next);
    const rounds = new Map<number, LoadResult[]>(CLIENT_COUNTS.map((clients) => [clients, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const clients of round % 2 === 0 ? CLIENT_COUNTS : [...CLIENT_COUNTS].reverse()) {
        rounds.get(clients)?.push(await load(bus.platform.url, clients, CREATES_PER_ROUND, next));
      }
    }
    const rates = CLIENT_COUNTS.map((clients) => printRounds(`POST /api/org/things, ${label}, ${clients} clients`, rounds.get(clients) ?? []));
    const steps = CLIENT_COUNTS.slice(1).map((clients, i) => `${CLIENT_COUNTS[i]} → ${clients}: ${(rates[i + 1] / rates[i]).toFixed(2)}×`);
    console.log(`POST /api/org/things, ${label}: median rate as clients are added, ${steps.join(", ")}; 20 clients against 1: ${(rates[2] / rates[0]).toFixed(2)}×`);
  }

  const probedBy = Date.now() + 30_000;
  while ((await fetch(`${bus.platform.url}/api/ready`)).status === 503 && Date.now() < probedBy) await new Promise((r) => setTimeout(r, 100));
  for (const path of ["/api/ready", "/api/health"]) {
    await load(bus.platform.url, READY_CLIENTS, 2_000, { path }); // warm-up
    print(`GET ${path}, ${READY_CLIENTS} concurrent clients`, await load(bus.platform.url, READY_CLIENTS, READY_REQUESTS, { path }));
  }
} finally {
  await bus.stop();
}

// The same load on the stock binary alone: what PocketBase and this machine give without any hook.
const empty = mkdtempSync(join(tmpdir(), "bench-no-hooks-"));
const stock = await startPlatform({ env: { PB_HOOKS_DIR: empty, PB_MIGRATIONS_DIR: empty } });
try {
  await load(stock.url, READY_CLIENTS, 2_000, { path: "/api/health" }); // warm-up
  print(`GET /api/health of the stock binary without hooks, ${READY_CLIENTS} concurrent clients`, await load(stock.url, READY_CLIENTS, READY_REQUESTS, { path: "/api/health" }));
} finally {
  await stock.stop();
  rmSync(empty, { recursive: true, force: true });
}
