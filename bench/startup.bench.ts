// Start and footprint of the control plane as `make run` runs it (scripts/run.sh): migrate, bootstrap,
// `bus export` once, then `scripts/platform serve --bus --bus-config <export>/bus.conf`, restarted
// BENCH_RESTARTS times (default 7). Printed, never asserted:
//   1. process start (spawn) → GET /api/health 200 and → GET /api/ready 200 (p50/p95/p99);
//   2. idle RSS per process of serve's tree (PocketBase, sidecar, nats-server, any wrapper) and the sum,
//      BENCH_IDLE_MS (default 3 s) after /api/ready first answered 200, each with the part of it that is
//      file-backed (the pages of the process's own executable and libraries: RssFile in /proc/PID/status);
//   3. the same start time and PocketBase's idle RSS for --hooksPool 15, 50, 100, 200.
// Section 1 passes no --hooksPool, so it measures whatever scripts/platform itself passes.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launch, LAUNCHER } from "../e2e/harness/platform";
import { freePorts } from "../e2e/harness/ports";
import { stop } from "../e2e/harness/process";
import { median, report } from "./stats";

const RESTARTS = Number(process.env.BENCH_RESTARTS ?? "7");
const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? "3000");
const POOL_SIZES = [15, 50, 100, 200];
const POLL_MS = 5;
const PERCENTILES = [50, 95, 99] as const;

interface Start {
  healthMs: number;
  readyMs: number;
  /** RSS in MB by role, of every process in serve's tree. */
  rss: Map<string, number>;
  /** The file-backed part of `rss`, by role. */
  fileBacked: Map<string, number>;
}

const root = mkdtempSync(join(tmpdir(), "platform-startup-bench-"));
const busDir = join(root, "bus");
const [natsPort, websocket, leafnode, monitor, http] = await freePorts(5);
const url = `http://127.0.0.1:${http}`;
const env: NodeJS.ProcessEnv = {
  ...process.env,
  PB_DATA_DIR: join(root, "data"),
  PLATFORM_BUS_SERVER_URL: `nats://127.0.0.1:${natsPort}`,
  PLATFORM_BUS_WEBSOCKET_URLS: `ws://127.0.0.1:${websocket}`,
};

try {
  await prepare();
  const starts: Start[] = [];
  for (let i = 0; i < RESTARTS; i++) starts.push(await measureStart([]));
  report(`serve --bus: process start → /api/health 200 (${RESTARTS} starts)`, starts.map((s) => s.healthMs), PERCENTILES);
  report(`serve --bus: process start → /api/ready 200 (${RESTARTS} starts)`, starts.map((s) => s.readyMs), PERCENTILES);
  printRss(starts);

  for (const size of POOL_SIZES) {
    const pooled: Start[] = [];
    for (let i = 0; i < RESTARTS; i++) pooled.push(await measureStart(["--hooksPool", String(size)]));
    report(`--hooksPool ${size}: process start → /api/health 200`, pooled.map((s) => s.healthMs), PERCENTILES);
    console.log(`--hooksPool ${size}: idle RSS of PocketBase p50=${median(pooled.map((s) => s.rss.get("pocketbase") ?? 0)).toFixed(1)} MB`);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}

/** What scripts/run.sh does before serving: the schema, a bootstrapped operator, the exported bus config. */
async function prepare(): Promise<void> {
  const steps = [
    ["migrate", "up"],
    ["bootstrap", "--email", "bench-operator@example.test", "--password", "bench-password-1", "--org", "System", "--operator-org", "Operators"],
    ["bus", "export", "--out", busDir, "--port", String(natsPort), "--websocket-port", String(websocket),
      "--leafnode-port", String(leafnode), "--monitor-port", String(monitor)],
  ];
  for (const step of steps) {
    const result = await launch(step, env, root);
    if (result.code !== 0) throw new Error(`${step.join(" ")} failed: ${result.stderr}${result.stdout}`);
  }
}

async function measureStart(flags: string[]): Promise<Start> {
  const started = performance.now();
  const child = spawn(LAUNCHER, ["serve", "--http", `127.0.0.1:${http}`, "--bus", "--bus-config", join(busDir, "bus.conf"), ...flags], { env, cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  try {
    const healthMs = (await until200(`${url}/api/health`, child, () => output)) - started;
    const readyMs = (await until200(`${url}/api/ready`, child, () => output)) - started;
    await new Promise((r) => setTimeout(r, IDLE_MS));
    return { healthMs, readyMs, ...residentByRole(child.pid ?? 0) };
  } finally {
    await stop(child, 15_000);
  }
}

/** performance.now() of the first 200 answer of `target`. */
async function until200(target: string, child: ChildProcess, output: () => string): Promise<number> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode}: ${output()}`);
    if (Date.now() > deadline) throw new Error(`${target} never answered 200: ${output()}`);
    try {
      const response = await fetch(target);
      await response.arrayBuffer();
      if (response.status === 200) return performance.now();
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** RSS (MB) of `pid` and its descendants and the file-backed part of it, summed by role; the role is the command's name. */
function residentByRole(pid: number): Pick<Start, "rss" | "fileBacked"> {
  const rss = new Map<string, number>();
  const fileBacked = new Map<string, number>();
  for (const each of [pid, ...descendants(pid)]) {
    const role = roleOf(each);
    const status = statusOf(each);
    rss.set(role, (rss.get(role) ?? 0) + statusMb(status, "VmRSS"));
    fileBacked.set(role, (fileBacked.get(role) ?? 0) + statusMb(status, "RssFile"));
  }
  return { rss, fileBacked };
}

function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = parentOf(Number(entry));
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  const walk = (p: number) => (children.get(p) ?? []).forEach((c) => (found.push(c), walk(c)));
  walk(pid);
  return found;
}

function parentOf(pid: number): number | undefined {
  try {
    // The command name (field 2) is in parentheses and may hold spaces; the parent pid follows the state.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined; // exited while listing
  }
}

/** pocketbase, node (the sidecar), nats-server, or the wrapper's own name (bash, cat, ...). */
function roleOf(pid: number): string {
  try {
    const name = readFileSync(`/proc/${pid}/comm`, "utf8").trim();
    return name === "node" ? "sidecar (node)" : name;
  } catch {
    return "exited";
  }
}

function statusOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return ""; // exited while listing
  }
}

/** A memory field of /proc/PID/status (kB there) in MB; 0 when absent. */
function statusMb(status: string, field: "VmRSS" | "RssFile"): number {
  const line = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
  return line ? Number(line[1]) / 1024 : 0;
}

function printRss(starts: Start[]): void {
  const roles = [...new Set(starts.flatMap((s) => [...s.rss.keys()]))].sort();
  const p50 = (of: (s: Start) => Map<string, number>, role: string) => median(starts.map((s) => of(s).get(role) ?? 0)).toFixed(1);
  const sum = (of: (s: Start) => Map<string, number>) => median(starts.map((s) => [...of(s).values()].reduce((a, b) => a + b, 0))).toFixed(1);
  const figures = roles.map((role) => `${role} ${p50((s) => s.rss, role)} (file-backed ${p50((s) => s.fileBacked, role)})`);
  console.log(`serve --bus: idle RSS p50 in MB (${IDLE_MS} ms after ready): ${figures.join(", ")}; sum ${sum((s) => s.rss)} (file-backed ${sum((s) => s.fileBacked)})`);
}
