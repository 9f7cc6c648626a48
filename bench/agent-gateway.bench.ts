// The site gateway's figures (issue 11, item 7), printed, never asserted. One hub (control plane plus the
// nats-server from `bus export`), one gateway Thing enrolled, `agent run` in gateway mode with the pinned
// nats-server as its leaf, site clients with their own bus users connected to the leaf:
//   1. exec → GET /ready 200 with the leaf attached (bus_local and hub_uplink ok), over BENCH_STARTS
//      starts (default 5) of each kind: cold (no leaf files yet: the config is fetched, the leaf started
//      from it) and warm (the leaf started from the files of an earlier run, as after a reboot);
//   2. idle RSS of the whole site, the agent process plus its nats-server child, all defaults, the leaf
//      attached and BENCH_SITE_CLIENTS (2) site clients connected, BENCH_SETTLE_MS (10 s) after that, over
//      BENCH_RSS_SAMPLES (5) samples 1 s apart;
//   3. revocation at the hub → the site client dropped: per trial one site client with its own bus user,
//      revoked by the organization's owner (bus_users.revoke = true), timed from the update request to the
//      close of that client's connection. The bound is gateway.leaf_config_interval plus the reload, so the
//      figure depends on where in the refresh period the revocation falls: the trials run concurrently
//      (each with its own client) and their revocations are spread evenly, with a random offset, over
//      one interval, so the phases are sampled uniformly and a trial does not wait a whole interval for the
//      previous one. With the default interval (30 s) and with a short one (2 s).
// Every agent runs with the defaults except the ports (and the interval under test); the bench's own looks at
// the leaf's /leafz (exec → leaf attached) separate the leaf's start from the agent's report of it.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { NatsConnection } from "@nats-io/transport-node";
import { runAgent, startAgent, type AgentProcess } from "../e2e/harness/agent";
import { connectWithCreds, startPlatformWithBus } from "../e2e/harness/bus";
import { freePorts } from "../e2e/harness/ports";
import { REPO_ROOT } from "../e2e/harness/process";
import { checkOf, readyWhen } from "../e2e/harness/readiness";
import { PASSWORD, client, createMember, createUser, unique } from "../e2e/harness/world";
import { median, report } from "./stats";

const STARTS = Number(process.env.BENCH_STARTS ?? "5");
const SITE_CLIENTS = Number(process.env.BENCH_SITE_CLIENTS ?? "2");
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? "10000");
const RSS_SAMPLES = Number(process.env.BENCH_RSS_SAMPLES ?? "5");
const SHORT_INTERVAL_MS = 2_000;
const DEFAULT_INTERVAL_MS = 30_000;
const SHORT_TRIALS = Number(process.env.BENCH_REVOKE_TRIALS ?? "20");
const DEFAULT_TRIALS = Number(process.env.BENCH_REVOKE_DEFAULT_TRIALS ?? "10");
const PERCENTILES = [50, 95, 99] as const;

const scratch = mkdtempSync(join(tmpdir(), "agent-gateway-bench-"));
const stateDir = join(scratch, "state");
const [observabilityPort, listenPort, monitorPort] = await freePorts(3);
const readyUrl = `http://127.0.0.1:${observabilityPort}`;
const leafUrl = `nats://127.0.0.1:${listenPort}`;
const hub = await startPlatformWithBus();
const open: NatsConnection[] = [];
let agent: AgentProcess | undefined;
try {
  const su = await hub.platform.superuser();
  const operatorUser = await createUser(su, `${unique("operator")}@example.test`, { is_operator: true });
  const operator = client(hub.platform.url);
  await operator.collection("users").authWithPassword(operatorUser.email as string, PASSWORD);
  const organizationId = (await operator.collection("organizations").create({ name: "Bench site", code: unique("site"), active: true })).id;
  const member = await createMember(su, organizationId, "owner");
  const owner = client(hub.platform.url);
  await owner.collection("users").authWithPassword(member.email as string, PASSWORD);
  const made = (await owner.send("/api/org/things", { method: "POST", body: { name: unique("gateway"), bus: { mode: "auto" } } })) as { email: string; password: string };
  const enrolled = await runAgent(["enroll", "--platform", hub.platform.url, "--email", made.email, "--state-dir", stateDir], `${made.password}\n`);
  if (enrolled.code !== 0) throw new Error(`enroll failed: ${enrolled.stderr}`);

  /** A device of the organization connected at the site with its own bus user. */
  const siteClient = async (): Promise<{ id: string; nc: NatsConnection }> => {
    const user = await su.collection("bus_users").create({ organization: organizationId, name: unique("device") });
    const nc = await connectWithCreds(leafUrl, user.creds_file as string);
    open.push(nc);
    return { id: user.id, nc };
  };

  // 1. Starts.
  const cold: number[] = [];
  const warm: number[] = [];
  const attachedCold: number[] = [];
  const attachedWarm: number[] = [];
  for (let i = 0; i < STARTS * 2; i++) {
    const isCold = i % 2 === 0;
    if (isCold) rmSync(join(stateDir, "gateway"), { recursive: true, force: true });
    const started = performance.now();
    agent = run({});
    const attached = leafAttached().then(() => performance.now() - started);
    await readyWhen(readyUrl, (body, status) => status === 200 && checkOf(body, "hub_uplink").state === "ok", { path: "/ready", withinMs: 30_000 });
    (isCold ? cold : warm).push(performance.now() - started);
    (isCold ? attachedCold : attachedWarm).push(await attached);
    await stopAgent();
  }
  report(`gateway: exec → leaf attached (its own /leafz), cold (leaf config fetched) (${STARTS} starts)`, attachedCold, PERCENTILES);
  report(`gateway: exec → /ready 200 with hub_uplink ok, cold (${STARTS} starts)`, cold, PERCENTILES);
  report(`gateway: exec → leaf attached (its own /leafz), warm (leaf from its files) (${STARTS} starts)`, attachedWarm, PERCENTILES);
  report(`gateway: exec → /ready 200 with hub_uplink ok, warm (${STARTS} starts)`, warm, PERCENTILES);

  // 2. Idle footprint, and 3. revocations with the default interval, on one agent with every default.
  agent = run({});
  await leafAttached();
  for (let i = 0; i < SITE_CLIENTS; i++) await siteClient();
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const site: number[] = [];
  const agentOnly: number[] = [];
  const leafOnly: number[] = [];
  const leafPid = leafPidOf(agent);
  for (let i = 0; i < RSS_SAMPLES; i++) {
    const agentMb = rssMb(agent.child.pid as number);
    const leafMb = rssMb(leafPid);
    agentOnly.push(agentMb);
    leafOnly.push(leafMb);
    site.push(agentMb + leafMb);
    await new Promise((r) => setTimeout(r, 1_000));
  }
  console.log(
    `gateway: idle RSS of the site (agent + leaf nats-server), defaults, leaf attached, ${SITE_CLIENTS} site clients, ${SETTLE_MS} ms settled, ${RSS_SAMPLES} samples: ` +
      `median=${median(site).toFixed(1)} MB max=${Math.max(...site).toFixed(1)} MB (agent median ${median(agentOnly).toFixed(1)} MB, leaf median ${median(leafOnly).toFixed(1)} MB)`,
  );
  await revocations(DEFAULT_TRIALS, DEFAULT_INTERVAL_MS, "default leaf_config_interval 30s");
  await stopAgent();

  agent = run({ AGENT_GATEWAY_LEAF_CONFIG_INTERVAL: `${SHORT_INTERVAL_MS}ms` });
  await leafAttached();
  await revocations(SHORT_TRIALS, SHORT_INTERVAL_MS, `leaf_config_interval ${SHORT_INTERVAL_MS / 1000}s`);
  await stopAgent();

  /**
   * `trials` site clients connected, then each revoked at the hub at its own moment, the moments spread
   * evenly over one refresh interval with a random offset; prints the time from each revocation request to
   * the close of its client's connection, and the revocation request's own round trip.
   */
  async function revocations(trials: number, intervalMs: number, label: string): Promise<void> {
    const clients = [];
    for (let i = 0; i < trials; i++) clients.push(await siteClient());
    const slot = intervalMs / trials;
    const offset = Math.random() * slot;
    const begin = performance.now();
    const dropped: number[] = [];
    const requests: number[] = [];
    await Promise.all(
      clients.map(async ({ id, nc }, k) => {
        await new Promise((r) => setTimeout(r, begin + offset + k * slot - performance.now()));
        const decided = performance.now();
        const closed = nc.closed().then(() => performance.now());
        await owner.collection("bus_users").update(id, { revoke: true });
        requests.push(performance.now() - decided);
        const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`a revoked site client is still connected after ${intervalMs + 30_000} ms`)), intervalMs + 30_000));
        dropped.push((await Promise.race([closed, timeout])) - decided);
      }),
    );
    report(`gateway: revocation at the hub → site client dropped, ${label} (${trials} trials, revocations spread over one interval)`, dropped, PERCENTILES);
    report(`gateway: the revocation request itself (PATCH bus_users revoke=true), ${label}`, requests, [50, 95]);
  }
} finally {
  for (const nc of open.splice(0)) await nc.close().catch(() => {});
  await stopAgent();
  await hub.stop();
  rmSync(scratch, { recursive: true, force: true });
}

/** `agent run` in gateway mode on the bench's ports with `env` over the defaults. */
function run(env: Record<string, string>): AgentProcess {
  return startAgent(["run"], {
    env: {
      AGENT_STATE_DIR: stateDir,
      AGENT_OBSERVABILITY_ADDR: `127.0.0.1:${observabilityPort}`,
      AGENT_OVERLAY_ENABLED: "false",
      AGENT_GATEWAY_ENABLED: "true",
      AGENT_GATEWAY_NATS_SERVER: join(REPO_ROOT, "bin/nats-server"),
      AGENT_GATEWAY_LISTEN: `127.0.0.1:${listenPort}`,
      AGENT_GATEWAY_MONITOR_PORT: String(monitorPort),
      ...env,
    },
    cwd: scratch,
  });
}

async function stopAgent(): Promise<void> {
  for (const nc of open.splice(0)) await nc.close().catch(() => {});
  await agent?.stop();
  agent = undefined;
}

/** Waits until the leaf's own monitoring reports its uplink to the hub (the /ready snapshot may lag 15 s). */
async function leafAttached(): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const leafz = await fetch(`http://127.0.0.1:${monitorPort}/leafz`).then((r) => r.json() as Promise<{ leafnodes?: number }>).catch(() => undefined);
    if ((leafz?.leafnodes ?? 0) > 0) return;
    if (Date.now() > deadline) throw new Error(`the leaf did not attach within 30 s; agent stderr:\n${agent?.stderr()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The leaf's pid, from the agent's log line that started it. */
function leafPidOf(running: AgentProcess): number {
  const started = [...running.logs].reverse().find((l) => l.msg === "gateway: leaf server started");
  const pid = Number(started?.pid);
  if (!(pid > 0)) throw new Error("no leaf pid in the agent's log");
  return pid;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
}
