import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:net";

// Ports are picked below the kernel's ephemeral range (ip_local_port_range). The kernel hands out ports of
// that range as the local port of every outgoing connection, so a port picked there (as `listen(0)` would)
// can be taken by any client's connect before the process it was picked for listens: CI saw "bind: address
// already in use" for a PocketBase that waited 2 s for its nats-server first. Below the range only another
// picker can take a port; each vitest worker picks from its own slice, so test files running at once never
// pick the same one, and within a process the slice is walked in turn from a random start, so a port picked
// and released is not picked again before the process has used the whole slice.
const LOWEST = 10_000;
const SLICES = 16;
const MAX_TRIES = 200;

function ephemeralStart(): number {
  try {
    const start = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    return Number.isInteger(start) && start > LOWEST + SLICES * 100 ? start : 32_768;
  } catch {
    return 32_768;
  }
}

/** This process's slice of [LOWEST, the ephemeral range). */
function slice(): { from: number; size: number } {
  const size = Math.floor((ephemeralStart() - LOWEST) / SLICES);
  const worker = Number(process.env.VITEST_POOL_ID ?? process.env.VITEST_WORKER_ID ?? process.pid);
  return { from: LOWEST + (worker % SLICES) * size, size };
}

const { from, size } = slice();
let next = Math.floor(Math.random() * size);

/** `count` distinct TCP ports that were free on the loopback interface a moment ago. */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let tries = 0; servers.length < count; tries++) {
      if (tries >= MAX_TRIES) throw new Error(`no free port found in ${from}-${from + size - 1} after ${MAX_TRIES} tries`);
      const port = from + (next++ % size);
      const server = await listen(port).catch(() => undefined);
      if (server) servers.push(server);
    }
    return servers.map((s) => {
      const address = s.address();
      return typeof address === "object" && address ? address.port : 0;
    });
  } finally {
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }
}

/**
 * `runs` first ports of `length` consecutive free ports each, the runs apart: what a cluster of `length`
 * nodes on one address needs, whose every listener steps its port by the node's index.
 */
export async function freePortRuns(runs: number, length: number): Promise<number[]> {
  const servers: Server[] = [];
  const firsts: number[] = [];
  try {
    for (let tries = 0; firsts.length < runs; tries++) {
      if (tries >= MAX_TRIES) throw new Error(`no run of ${length} free ports found in ${from}-${from + size - 1} after ${MAX_TRIES} tries`);
      const first = from + (next % size);
      next += length;
      if (first + length > from + size) continue;
      const run = await Promise.all(Array.from({ length }, (_, i) => listen(first + i).catch(() => undefined)));
      const held = run.filter((server): server is Server => server !== undefined);
      servers.push(...held);
      if (held.length === length) firsts.push(first);
    }
    return firsts;
  } finally {
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }
}

export async function freePort(): Promise<number> {
  return (await freePorts(1))[0];
}

function listen(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}
