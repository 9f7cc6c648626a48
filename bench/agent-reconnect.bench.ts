// The agent's bus connection during a long hub outage (issue 10 item 8: memory growth ≤ 10 MB over 43,200
// failed reconnects to a dead hub): 43,200 failed dials (a day at a 2 s wait) against a loopback port where
// nothing listens, with no wait between them. nats.js issue 433 reports ~11.5 KB kept per failed dial by the
// library's own reconnect; the agent's loop (agent/src/bus/connection.ts) opens a fresh connection per
// attempt instead. Printed, never asserted.
//
// Each loop runs in its own Node process (this file again, BENCH_RECONNECT_LOOP set), so its node flags
// are those it is measured with: the agent's loop with the flags the agent runs with
// (agent/src/service/node-flags.ts), then the library's loop for comparison; BENCH_RECONNECT_DEFAULTS=1
// adds the agent's loop with node's defaults (another 60-90 s). Memory (RSS, heap used
// and committed, each after a full GC) is read before the first dial, after WARMUP dials and after the
// last: the whole run is what an operator sees; after the warm-up is what remains once V8 has sized its
// young generation for the loop's allocation rate (heap committed rises in the first thousands of dials,
// heap used does not).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { connect } from "@nats-io/transport-node";
import { startBusConnection } from "../agent/src/bus/connection";
import { createLogger } from "../agent/src/lib/log";
import { AGENT_NODE_FLAGS } from "../agent/src/service/node-flags";
import { startNatsServer } from "../e2e/harness/nats";
import { freePort } from "../e2e/harness/ports";
import { report } from "./stats";

const ATTEMPTS = 43_200;
const WARMUP = 2_000;
const LOOPS = {
  agent: "agent bus loop (fresh connection per attempt)",
  library: "library reconnect (reconnect: true, no wait)",
} as const;
type Loop = keyof typeof LOOPS;

// A creds file in nsc's layout; never presented, since no server ever answers.
const CREDS = [
  "-----BEGIN NATS USER JWT-----",
  "eyJ0eXAiOiJKV1QiLCJhbGciOiJlZDI1NTE5LW5rZXkifQ.e30.placeholder",
  "------END NATS USER JWT------",
  "",
  "-----BEGIN USER NKEY SEED-----",
  "SUAIBDPBAUTWCWBKIO6XHQNINK5FWJW4OHLXC3HQ2KFE4PEJUA44CNHTC4",
  "------END USER NKEY SEED------",
  "",
].join("\n");

const loop = process.env.BENCH_RECONNECT_LOOP as Loop | undefined;
if (loop === undefined) {
  // A bundle has no import.meta.url of its own (build-bench defines it): argv[1] is this file.
  const self = process.argv[1] ?? fileURLToPath(import.meta.url);
  const runs: Array<[Loop, readonly string[]]> = [["agent", AGENT_NODE_FLAGS], ["library", []]];
  if (process.env.BENCH_RECONNECT_DEFAULTS === "1" && AGENT_NODE_FLAGS.length > 0) runs.unshift(["agent", []]);
  for (const [which, flags] of runs) {
    const run = spawnSync(process.execPath, [...flags, self], { env: { ...process.env, BENCH_RECONNECT_LOOP: which }, stdio: "inherit" });
    if (run.status !== 0) throw new Error(`the ${which} loop exited with ${run.status ?? run.signal}`);
  }
} else {
  await measureLoop(loop);
}

async function measureLoop(which: Loop): Promise<void> {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  const settled = async () => {
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((r) => setTimeout(r, 50));
    }
    return process.memoryUsage();
  };
  const counter = attemptCounter();
  const before = await settled();
  const stop = await (which === "agent" ? agentLoop : libraryLoop)(counter.failed);
  await counter.until(WARMUP);
  const warm = await settled();
  const started = performance.now();
  // RSS along the way, no GC: a plateau (the young generation sized once) reads differently from a slope.
  const along: string[] = [];
  for (let quarter = 1; quarter <= 4; quarter++) {
    await counter.until((ATTEMPTS * quarter) / 4);
    along.push(mb(process.memoryUsage().rss));
  }
  const seconds = (performance.now() - started) / 1000;
  const after = await settled();
  await stop();
  const growth = (from: number, to: number) => `${mb(from)} → ${mb(to)} MB (${sign(to - from)} MB)`;
  const flags = process.execArgv.filter((a) => a !== "--expose-gc").join(" ") || "node defaults";
  console.log(
    `${LOOPS[which]}, ${flags}: ${ATTEMPTS} failed dials to a dead port (${WARMUP} of warm-up, the rest in ${seconds.toFixed(1)} s): ` +
      `RSS whole run ${growth(before.rss, after.rss)}, after warm-up ${growth(warm.rss, after.rss)}; ` +
      `heap used ${mb(before.heapUsed)} → ${mb(warm.heapUsed)} → ${mb(after.heapUsed)} MB; ` +
      `heap committed ${mb(before.heapTotal)} → ${mb(warm.heapTotal)} → ${mb(after.heapTotal)} MB; ` +
      `RSS per quarter (no GC) ${along.join(", ")} MB`,
  );
  report(`${LOOPS[which]}, ${flags}, time between failed dials (no wait)`, counter.gaps.slice(WARMUP), [50, 95, 99]);
}

function mb(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1);
}

function sign(bytes: number): string {
  return `${bytes >= 0 ? "+" : ""}${mb(bytes)}`;
}

/** Counts failed attempts as a loop reports them, and resolves when a count is reached. */
function attemptCounter() {
  let failures = 0;
  let last = performance.now();
  const gaps: number[] = [];
  let target = Infinity;
  let reached = () => {};
  return {
    gaps,
    failed() {
      failures++;
      const now = performance.now();
      gaps.push(now - last);
      last = now;
      if (failures >= target) reached();
    },
    until: (count: number) =>
      new Promise<void>((resolve) => {
        target = count;
        reached = resolve;
        if (failures >= count) resolve();
      }),
  };
}

async function agentLoop(failed: () => void): Promise<() => Promise<void>> {
  const port = await freePort();
  const logger = createLogger((line) => {
    if (line.includes('"bus: not connected"')) failed();
  }, "debug");
  const connection = startBusConnection({
    servers: [`nats://127.0.0.1:${port}`],
    name: "bench",
    logger,
    onAuthError: () => {},
    backoff: { initialMs: 0, maxMs: 0 },
  });
  connection.useCreds(CREDS);
  return () => connection.stop();
}

async function libraryLoop(failed: () => void): Promise<() => Promise<void>> {
  // The library's loop starts only after a first connection: a server that accepts one, then goes away.
  const server = await startNatsServer({ configText: "listen: 127.0.0.1:-1\n" });
  const nc = await connect({ servers: server.url, maxReconnectAttempts: -1, reconnectTimeWait: 0, reconnectJitter: 0, timeout: 2_000 });
  void (async () => {
    for await (const status of nc.status()) if (status.type === "reconnecting") failed();
  })();
  await server.stop();
  return () => nc.close();
}
