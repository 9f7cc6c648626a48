// GET /api/ready under load and the prober's real schedule, against the real platform with its bus and
// the default readiness settings (interval 15s, timeout 5s). Figures are printed, never asserted.
//   1. /api/ready latency with 100 concurrent clients (p50/p95/p99).
//   2. How soon the first snapshot is served after PocketBase answers /api/health (five restarts).
//   3. The prober's real interval (between consecutive `checked` times) and probe duration (`took`) over
//      ten minutes (BENCH_PROBER_MINUTES overrides), read from the served snapshots.
import { parseDuration } from "../common/config/duration";
import { startPlatformWithBus } from "../e2e/harness/bus";
import { load } from "./load";
import { report } from "./stats";

const CLIENTS = 100;
const REQUESTS_PER_CLIENT = 100;
const PROBER_MINUTES = Number(process.env.BENCH_PROBER_MINUTES ?? "10");
const POLL_MS = 200;

const bus = await startPlatformWithBus({ env: { PLATFORM_BUS_WEBSOCKET_URLS: "ws://127.0.0.1:8443" } });
try {
  const booted = await bus.platform.command(["bootstrap", "--email", "bench-operator@example.test", "--password", "bench-password-1"]);
  if (booted.code !== 0) throw new Error(`bootstrap failed: ${booted.stderr}`);
  const ready = `${bus.platform.url}/api/ready`;
  const probedBy = Date.now() + 30_000;
  while ((await fetch(ready)).status === 503 && Date.now() < probedBy) await new Promise((r) => setTimeout(r, 100));

  // 1. Latency under 100 concurrent clients, each on its own kept-alive connection (bench/load.ts: the
  // same generator as concurrency.bench, which costs the shared cores far less per request than fetch).
  await load(bus.platform.url, CLIENTS, 2_000, { path: "/api/ready" }); // warm-up
  const probes = await load(bus.platform.url, CLIENTS, CLIENTS * REQUESTS_PER_CLIENT, { path: "/api/ready" });
  report(`GET /api/ready, ${CLIENTS} concurrent clients (${Math.round(probes.perSecond)} req/s, errors=${probes.errors})`, probes.latenciesMs, [50, 95, 99]);

  // 2. First snapshot after a (re)start: from the first healthy answer to the first probed body.
  const firstSnapshot: number[] = [];
  for (let i = 0; i < 5; i++) {
    await bus.platform.restart();
    const healthy = performance.now();
    while (((await (await fetch(ready)).json()) as { checked: string | null }).checked === null) await new Promise((r) => setTimeout(r, 5));
    firstSnapshot.push(performance.now() - healthy);
  }
  report("first snapshot served after PocketBase answers /api/health (restarts)", firstSnapshot, [50, 100]);

  // 3. The prober's schedule as served.
  const checked: number[] = [];
  const took: number[] = [];
  const until = Date.now() + PROBER_MINUTES * 60_000;
  while (Date.now() < until) {
    const body = (await (await fetch(ready)).json()) as { checked: string | null; took: string };
    const at = body.checked ? Date.parse(body.checked) : NaN;
    if (!Number.isNaN(at) && at !== checked[checked.length - 1]) {
      checked.push(at);
      took.push(parseDuration(body.took));
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  const intervals = checked.slice(1).map((t, i) => t - checked[i]);
  report(`prober interval over ${PROBER_MINUTES} min (readiness.interval 15s; ${checked.length} snapshots)`, intervals, [50, 95, 100]);
  report(`probe duration over ${PROBER_MINUTES} min (readiness.timeout 5s)`, took, [50, 95, 100]);
} finally {
  await bus.stop();
}
