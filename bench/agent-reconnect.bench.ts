// The agent's bus connection during a long hub outage (issue 10 item 8): 43,200 failed dials (a day at a
// 2 s wait) against a loopback port where nothing listens, with no wait between them, and the process's
// memory before and after. nats.js issue 433 reports ~11.5 KB kept per failed dial by the library's own
// reconnect; the agent's loop (agent/src/bus/connection.ts) opens a fresh connection per attempt
// instead. The library's loop runs the same count afterwards, for comparison.
// Printed, never asserted: RSS and heap before/after (after a full GC), per-attempt growth, RSS at each
// quarter, and the time between attempts. With no wait V8 grows its young generation to the loop's
// allocation rate in the first thousands of attempts (heap committed rises, heap used does not): the
// quarters show whether anything grows after that.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { connect } from "@nats-io/transport-node";
import { startBusConnection } from "../agent/src/bus/connection";
import { createLogger } from "../agent/src/lib/log";
import { startNatsServer } from "../e2e/harness/nats";
import { freePort } from "../e2e/harness/ports";
import { report } from "./stats";

const ATTEMPTS = 43_200;
const WARMUP = 1_000;

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

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const settle = async () => {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 50));
  }
};
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** Counts failed attempts as `start` reports them, and resolves when a count is reached. */
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

/** Runs WARMUP then ATTEMPTS failed dials of one retry loop and prints what memory did. */
async function phase(name: string, start: (failed: () => void) => Promise<() => Promise<void>>): Promise<void> {
  const counter = attemptCounter();
  const stop = await start(counter.failed);
  await counter.until(WARMUP);
  await settle();
  const before = process.memoryUsage();
  counter.gaps.length = 0;
  const started = performance.now();
  // RSS along the way: a plateau (the young generation sized once) reads differently from a slope.
  const along: string[] = [];
  for (let done = ATTEMPTS / 4; done <= ATTEMPTS; done += ATTEMPTS / 4) {
    await counter.until(WARMUP + done);
    along.push(`${done}: ${mb(process.memoryUsage().rss)}`);
  }
  const seconds = (performance.now() - started) / 1000;
  await stop();
  await settle();
  const after = process.memoryUsage();
  console.log(
    `${name}, ${ATTEMPTS} failed dials to a dead port in ${seconds.toFixed(1)} s: ` +
      `RSS ${mb(before.rss)} -> ${mb(after.rss)} MB (${((after.rss - before.rss) / ATTEMPTS).toFixed(1)} B/attempt), ` +
      `heap committed ${mb(before.heapTotal)} -> ${mb(after.heapTotal)} MB, ` +
      `heap used ${mb(before.heapUsed)} -> ${mb(after.heapUsed)} MB (${((after.heapUsed - before.heapUsed) / ATTEMPTS).toFixed(1)} B/attempt); ` +
      `RSS per quarter (MB, no GC) ${along.join(", ")}`,
  );
  report(`${name}, time between failed dials (no wait)`, counter.gaps.slice(0, ATTEMPTS), [50, 95, 99]);
}

await phase("agent bus loop (fresh connection per attempt)", async (failed) => {
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
});

await phase("library reconnect (reconnect: true, no wait)", async (failed) => {
  // The library's loop starts only after a first connection: a server that accepts one, then goes away.
  const server = await startNatsServer({ configText: "listen: 127.0.0.1:-1\n" });
  const nc = await connect({ servers: server.url, maxReconnectAttempts: -1, reconnectTimeWait: 0, reconnectJitter: 0, timeout: 2_000 });
  void (async () => {
    for await (const status of nc.status()) if (status.type === "reconnecting") failed();
  })();
  await server.stop();
  return () => nc.close();
});
