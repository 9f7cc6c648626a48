// The agent core's figures (issue 10, item 8), printed, never asserted:
//   1. exec → listening and exec → GET /ready 200 over BENCH_RESTARTS starts (default 7);
//   2. idle RSS of the agent BENCH_IDLE_MS (default 3 s) after /ready first answered 200;
//   3. GET /ready latency with 100 concurrent scrapers, each on its own keep-alive connection: (a) as
//      scrapers behave, each asking every BENCH_SCRAPE_MS (default 100 ms, so 1,000 requests/s in all), start
//      times spread over one period; (b) saturated, each asking again as soon as answered (a closed loop:
//      its latency is 100 / throughput, mostly queueing).
// The agent runs without platform, bus or overlay (none configured): the core alone. The scrapers run in
// this process on the same cores as the agent.
import { readFileSync, mkdtempSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startAgent, type AgentProcess } from "../e2e/harness/agent";
import { freePort } from "../e2e/harness/ports";
import { report } from "./stats";

const RESTARTS = Number(process.env.BENCH_RESTARTS ?? "7");
const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? "3000");
const SCRAPERS = 100;
const ROUNDS = Number(process.env.BENCH_READY_ROUNDS ?? "50");
const SCRAPE_MS = Number(process.env.BENCH_SCRAPE_MS ?? "100");
const PERCENTILES = [50, 95, 99] as const;

const root = mkdtempSync(join(tmpdir(), "agent-core-bench-"));
try {
  const listening: number[] = [];
  const ready: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < RESTARTS; i++) {
    const port = await freePort();
    const started = performance.now();
    const agent = start(port);
    try {
      await poll(() => canConnect(port));
      listening.push(performance.now() - started);
      await poll(async () => (await readyStatus(port)) === 200);
      ready.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, IDLE_MS));
      rss.push(rssMb(agent));
      if (i === RESTARTS - 1) await scrapers(port);
    } finally {
      await agent.stop();
    }
  }
  report(`agent: exec → listening (${RESTARTS} starts)`, listening, PERCENTILES);
  report(`agent: exec → /ready 200 (${RESTARTS} starts)`, ready, PERCENTILES);
  const sorted = [...rss].sort((a, b) => a - b);
  console.log(`agent: idle RSS ${IDLE_MS} ms after /ready 200: median=${sorted[Math.floor(sorted.length / 2)].toFixed(1)} MB max=${sorted[sorted.length - 1].toFixed(1)} MB`);
} finally {
  rmSync(root, { recursive: true, force: true });
}

function start(port: number): AgentProcess {
  return startAgent(["run"], {
    env: { AGENT_STATE_DIR: join(root, "state"), AGENT_OBSERVABILITY_ADDR: `127.0.0.1:${port}` },
    cwd: root,
  });
}

async function scrapers(port: number): Promise<void> {
  const paced = await scrape(port, (scraper, round) => scraper * (SCRAPE_MS / SCRAPERS) + round * SCRAPE_MS);
  report(`agent: GET /ready, ${SCRAPERS} scrapers each every ${SCRAPE_MS} ms`, paced, PERCENTILES);
  const saturated = await scrape(port, () => 0);
  report(`agent: GET /ready, ${SCRAPERS} scrapers back to back (saturated)`, saturated, PERCENTILES);
}

/** ROUNDS requests per scraper; `due` gives the ms (from the start) a request is sent at, at the earliest. */
async function scrape(port: number, due: (scraper: number, round: number) => number): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: SCRAPERS });
  const samples: number[] = [];
  const begin = performance.now();
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const t0 = performance.now();
      const req = request({ host: "127.0.0.1", port, path: "/ready", agent }, (res) => {
        res.resume();
        res.on("end", () => {
          samples.push(performance.now() - t0);
          resolve();
        });
      });
      req.on("error", reject);
      req.end();
    });
  await Promise.all(
    Array.from({ length: SCRAPERS }, async (_, scraper) => {
      for (let round = 0; round < ROUNDS; round++) {
        const wait = begin + due(scraper, round) - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        await one();
      }
    }),
  );
  agent.destroy();
  return samples;
}

async function poll(condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition().catch(() => false))) {
    if (Date.now() > deadline) throw new Error("agent did not come up within 10 s");
    await new Promise((r) => setTimeout(r, 2));
  }
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
  });
}

async function readyStatus(port: number): Promise<number> {
  return (await fetch(`http://127.0.0.1:${port}/ready`)).status;
}

function rssMb(agent: AgentProcess): number {
  const status = readFileSync(`/proc/${agent.child.pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}
