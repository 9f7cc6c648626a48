// The whole agent as an operator runs it (issue 10 item 7): a Thing created through POST /api/org/things,
// `agent enroll` with its one-time password on stdin, then `agent run` as its own process against the real
// control plane and the pinned nats-server from `bus export`. Every scenario checks that the same process
// lives through it (no exit, no restart loop) and comes back without an operator's action.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { NatsConnection } from "@nats-io/transport-node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { enrollAgent, runBusDevice, type AgentProcess } from "../harness/agent";
import { connectWithCreds, startPlatformWithBus, type PlatformWithBus } from "../harness/bus";
import { createFleet, type Fleet } from "../harness/fleet";
import { checkBecomes, checkOf, readyWhen } from "../harness/readiness";

const SYNC_INTERVAL = "2s";

let bus: PlatformWithBus;
let fleet: Fleet;
const scratch = mkdtempSync(join(tmpdir(), "agent-run-"));
const running: AgentProcess[] = [];
const open: NatsConnection[] = [];

beforeAll(async () => {
  bus = await startPlatformWithBus();
  fleet = await createFleet(bus.platform, "Agent fleet");
});
afterEach(async () => {
  for (const nc of open.splice(0)) await nc.close().catch(() => {});
  await Promise.all(running.splice(0).map((agent) => agent.stop()));
});
afterAll(async () => {
  await bus?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

interface Device {
  id: string;
  code: string;
  email: string;
  busUser: string;
  stateDir: string;
  agent: AgentProcess;
  /** The agent's /ready and /metrics base URL. */
  url: string;
}

/** Creates a Thing with a bus identity, enrolls it (password on stdin) and runs the agent for it. */
async function enrolledAgent(env: Record<string, string> = {}): Promise<Device> {
  const { made, stateDir, agent, url } = await runBusDevice(bus.platform.url, bus.busUrl, fleet.owner, scratch, {
    AGENT_PLATFORM_SYNC_INTERVAL: SYNC_INTERVAL,
    AGENT_BUS_HEARTBEAT_INTERVAL: "1s",
    ...env,
  });
  running.push(agent);
  const thing = await fleet.su.collection("things").getOne(made.id);
  return { id: made.id, code: made.code, email: made.email, busUser: thing.bus_user as string, stateDir, agent, url };
}

const becomes = (device: Device, name: string, state: string, withinMs = 30_000) => checkBecomes(device.url, name, state, { path: "/ready", withinMs });
const credsOnDisk = (device: Device) => readFileSync(join(device.stateDir, "bus.creds"), "utf8");
const alive = (device: Device) => device.agent.child.exitCode === null && device.agent.child.signalCode === null;
/** Log lines of one kind written after `since` (a count of attempts, to tell a back-off from a loop). */
const linesSince = (device: Device, since: number, msg: string) => device.agent.logs.filter((l) => l.msg === msg && Date.parse(String(l.time)) >= since).length;

async function asDevice(device: Device): Promise<NatsConnection> {
  const nc = await connectWithCreds(bus.busUrl, credsOnDisk(device));
  open.push(nc);
  return nc;
}

describe("agent run, enrolled from a Thing created through POST /api/org/things", () => {
  it("is ready: bus and platform sync ok; heartbeats on the bus; cmd.health answers the /ready report, cmd.ping a pong", async () => {
    const device = await enrolledAgent();
    const { status, body } = await readyWhen(device.url, (b) => checkOf(b, "platform_sync").state === "ok", { path: "/ready" });
    expect(status).toBe(200);
    expect(body.checks.map((c) => [c.name, c.state])).toEqual([
      ["bus", "ok"],
      ["overlay", "skipped"],
      ["persistence", expect.stringMatching(/^(ok|warn)$/)],
      ["platform_sync", "ok"],
      ["task_metrics", "ok"],
    ]);
    // Skipped carries a fix like any state but ok: what would make the check apply.
    expect(checkOf(body, "overlay")).toMatchObject({ detail: "overlay.enabled is false", fix: expect.stringContaining("set overlay.enabled to true") });

    const nc = await asDevice(device);
    const beat = await new Promise<Record<string, unknown>>((resolve) => {
      nc.subscribe(`agents.${device.code}.heartbeat`, { max: 1, callback: (_err, msg) => resolve(msg.json()) });
    });
    expect(beat).toMatchObject({ version: body.version });
    const health = (await nc.request(`agents.${device.code}.cmd.health`, "", { timeout: 5_000 })).json<{ version: string; checks: { name: string }[] }>();
    expect(health.version).toBe(body.version);
    expect(health.checks.map((c) => c.name)).toEqual(body.checks.map((c) => c.name));
    const pong = (await nc.request(`agents.${device.code}.cmd.ping`, "", { timeout: 5_000 })).json<{ pong: boolean }>();
    expect(pong.pong).toBe(true);
  });

  it("hub stopped: bus fails and /ready answers 503; the hub back: ready again, same process", async () => {
    const device = await enrolledAgent();
    await bus.stopNats();
    try {
      const down = await becomes(device, "bus", "fail", 15_000);
      expect(down.status).toBe(503);
      expect(down.body.ready).toBe(false);
    } finally {
      await bus.startNats();
    }
    const up = await becomes(device, "bus", "ok");
    expect(up.status).toBe(200);
    expect(alive(device)).toBe(true);
  });

  it("/ready answers 503 as soon as the bus connection ends, not at the next probe", { timeout: 150_000 }, async () => {
    // Past the first interval (whose probes come every 500 ms while a check is not ok) probes are 20 s
    // apart: the hub is stopped right after one lands, so only a probe the disconnect starts shows it in 5 s.
    // Such a probe is known by the gap to the one before it (the agent's clock, not the test's: the agent
    // may have been up for a while before enrolledAgent returns on a loaded machine).
    const device = await enrolledAgent({ AGENT_OBSERVABILITY_INTERVAL: "20s" });
    const checkedAt = async (after?: Date) => Date.parse((await readyWhen(device.url, () => true, { path: "/ready", after, withinMs: 30_000 })).body.checked);
    let previous = await checkedAt();
    for (let gap = 0; gap < 15_000; ) {
      const next = await checkedAt(new Date(previous));
      gap = next - previous;
      previous = next;
    }
    // The agent sees the close before stopNats() returns: a snapshot from then on counts.
    const stopping = new Date();
    await bus.stopNats();
    try {
      const down = await readyWhen(device.url, (body) => checkOf(body, "bus").state === "fail", { path: "/ready", after: stopping, withinMs: 5_000 });
      expect(down.status).toBe(503);
    } finally {
      await bus.startNats();
    }
    expect((await becomes(device, "bus", "ok")).status).toBe(200);
  });

  it("a hub that stops answering without closing (frozen): bus fails within a minute, 503; thawed: back, same process", async () => {
    const device = await enrolledAgent();
    const hub = bus.nats().pid;
    process.kill(hub, "SIGSTOP");
    try {
      const frozen = Date.now();
      const down = await becomes(device, "bus", "fail", 60_000);
      console.log(`hub frozen -> bus fail: ${Date.now() - frozen} ms`);
      expect(down.status).toBe(503);
      expect(checkOf(down.body, "bus").detail).toContain("stopped answering pings");
    } finally {
      process.kill(hub, "SIGCONT");
    }
    await becomes(device, "bus", "ok", 60_000);
    expect(alive(device)).toBe(true);
  });

  it("revoke-and-replace at the control plane: the new creds are adopted within 30 s, without exiting", async () => {
    const device = await enrolledAgent();
    const before = credsOnDisk(device);
    await fleet.su.collection("bus_users").update(device.busUser, { revoke: true });
    const replaced = (await fleet.su.collection("bus_users").getOne(device.busUser)).creds_file as string;
    const started = Date.now();
    await readyWhen(device.url, (b) => checkOf(b, "bus").state === "ok" && credsOnDisk(device) === replaced, { path: "/ready", withinMs: 30_000 });
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(credsOnDisk(device)).not.toBe(before);
    expect(alive(device)).toBe(true);
  });

  it("cmd.rotate_creds over the bus: the agent rotates at the platform and adopts the re-minted creds, without exiting", async () => {
    const device = await enrolledAgent();
    const before = credsOnDisk(device);
    const nc = await asDevice(device);
    // Rotation re-signs the same key: within the second the creds were minted it would give the same text.
    await new Promise((r) => setTimeout(r, 1_100));
    const reply = (await nc.request(`agents.${device.code}.cmd.rotate_creds`, "", { timeout: 10_000 })).json<Record<string, unknown>>();
    expect(reply).toMatchObject({ ok: true });
    const reminted = (await fleet.su.collection("bus_users").getOne(device.busUser)).creds_file as string;
    expect(reminted).not.toBe(before);
    await readyWhen(device.url, (b) => checkOf(b, "bus").state === "ok" && credsOnDisk(device) === reminted, { path: "/ready", withinMs: 30_000 });
    expect(alive(device)).toBe(true);
  });

  it("bus user suspended: bus fails and platform_sync says so, with back-off, no restart loop; reactivated: back by itself", async () => {
    const device = await enrolledAgent();
    await fleet.owner.collection("bus_users").update(device.busUser, { active: false });
    await becomes(device, "bus", "fail");
    const sync = await becomes(device, "platform_sync", "warn");
    expect(checkOf(sync.body, "platform_sync").detail).toContain("bus identity is suspended");
    const since = Date.now();
    await new Promise((r) => setTimeout(r, 6_000));
    // The hub refuses every attempt; the back-off (0.5 s doubling) keeps them few, and the process lives.
    expect(linesSince(device, since, "bus: the hub refused the credential")).toBeLessThan(10);
    expect(alive(device)).toBe(true);

    await fleet.owner.collection("bus_users").update(device.busUser, { active: true });
    await becomes(device, "bus", "ok", 45_000);
    await becomes(device, "platform_sync", "ok");
    expect(alive(device)).toBe(true);
  });

  it("Thing deactivated: platform_sync warns with the re-enroll command, re-checked with back-off, the process lives; re-enrolled: back without a restart", async () => {
    const device = await enrolledAgent();
    await fleet.owner.collection("things").update(device.id, { active: false });
    const warned = await becomes(device, "platform_sync", "warn");
    expect(checkOf(warned.body, "platform_sync").fix).toContain("agent enroll --platform");
    // The cascade suspended the bus user too: the hub refuses the creds.
    await becomes(device, "bus", "fail");
    const since = Date.now();
    await new Promise((r) => setTimeout(r, 8_000));
    // Back-off doubles from the 2 s interval: at most a few platform attempts in 8 s, not one per bus refusal.
    expect(linesSince(device, since, "platform sync failed")).toBeLessThanOrEqual(3);
    expect(alive(device)).toBe(true);

    // The remedy in fix: reactivated with a new password and enrolled again; the running agent takes it up.
    const password = "a-new-password-123";
    await fleet.su.collection("things").update(device.id, { active: true, password, passwordConfirm: password });
    await enrollAgent(bus.platform.url, { email: device.email, password }, device.stateDir);
    await becomes(device, "platform_sync", "ok", 45_000);
    await becomes(device, "bus", "ok", 45_000);
    expect(alive(device)).toBe(true);
  });

  it("organization suspended: the agent is disconnected; restored: it reconnects by itself", async () => {
    const device = await enrolledAgent();
    await fleet.operator.collection("organizations").update(fleet.organizationId, { active: false });
    try {
      await becomes(device, "bus", "fail");
      expect(alive(device)).toBe(true);
    } finally {
      await fleet.operator.collection("organizations").update(fleet.organizationId, { active: true });
    }
    await becomes(device, "bus", "ok", 45_000);
    expect(alive(device)).toBe(true);
  });
});
