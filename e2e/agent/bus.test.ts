// The agent's bus side (issue 10 items 4, 6, 7) against a real control plane and the pinned nats-server
// from `bus export`: a Thing created with bus.mode auto, its creds read as an owner, driven through the
// agent's connection module in this process (no new process is ever started for it).
import { jetstreamManager } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { busCheck, persistenceCheck } from "../../agent/src/bus/checks";
import { startCommands } from "../../agent/src/bus/commands";
import { startBusConnection } from "../../agent/src/bus/connection";
import type { BusFailure } from "../../agent/src/bus/errors";
import { createPersistenceProbe } from "../../agent/src/bus/persistence";
import { startPublishing } from "../../agent/src/bus/publishing";
import { agentSubjects } from "../../common/bus/agent-subjects";
import type { Check } from "../../agent/src/health/check";
import { createLogger } from "../../agent/src/lib/log";
import { AGENT_VERSION } from "../../agent/src/version";
import { connectWithCreds, eventually, startPlatformWithBus, type PlatformWithBus } from "../harness/bus";
import { signedInOwner } from "../harness/fleet";
import { client, unique } from "../harness/world";

let bus: PlatformWithBus;
let su: PocketBase;
let owner: PocketBase;

beforeAll(async () => {
  bus = await startPlatformWithBus();
  su = await bus.platform.superuser();
  const org = await su.collection("organizations").create({ name: "Agents", code: unique("agents"), active: true });
  owner = await signedInOwner(bus.platform.url, su, org.id);
});
afterAll(async () => bus?.stop());

interface Device {
  code: string;
  email: string;
  password: string;
  busUser: string;
}

async function createDevice(as: PocketBase = owner): Promise<Device> {
  const made = await as.send("/api/org/things", { method: "POST", body: { name: unique("agent"), bus: { mode: "auto" } } });
  const thing = await su.collection("things").getOne(made.id);
  return { code: made.code, email: made.email, password: made.password, busUser: thing.bus_user };
}

const credsOf = async (device: Device, as: PocketBase = owner) => (await as.collection("bus_users").getOne(device.busUser)).creds_file as string;

/** An agent's bus side, as run.ts composes it, with a fast back-off so that the test waits little. */
function startAgentBus(device: Device, rotate: () => Promise<void> = async () => {}) {
  const authErrors: BusFailure[] = [];
  const subjects = agentSubjects("agents", device.code);
  const connection = startBusConnection({
    servers: [bus.busUrl],
    name: device.code,
    logger: createLogger(() => {}),
    onAuthError: (failure) => authErrors.push(failure),
    dialTimeoutMs: 2_000,
    backoff: { initialMs: 200, maxMs: 1_000 },
  });
  const probe = createPersistenceProbe(subjects.telemetry, 1_500);
  const checks = { bus: busCheck(connection, "hub"), persistence: persistenceCheck(connection, probe, subjects.telemetryOfAll) };
  const readiness = { report: () => ({ status: 200, body: { ready: true, state: "ok", version: AGENT_VERSION, checks: [] } }) };
  startCommands({ connection, subjects, readiness, rotate, logger: createLogger(() => {}) });
  const publishing = startPublishing({
    connection, subjects, probe, readiness,
    sample: async () => ({ cpu: 0.5 }),
    heartbeatMs: 200, telemetryMs: 200, startedAt: new Date(), logger: createLogger(() => {}),
  });
  return {
    connection, subjects, checks, authErrors, readiness,
    stop: async () => {
      publishing.stop();
      await connection.stop();
    },
  };
}

const stateOf = async (check: Check) => (await check.run()).state;
const becomes = (check: Check, state: string, ms = 10_000) => eventually(async () => (await stateOf(check)) === state, ms);
const json = (data: Uint8Array) => JSON.parse(new TextDecoder().decode(data)) as Record<string, unknown>;

/** The first message on `subject` seen by a separate client with `creds`. */
async function firstMessage(creds: string, subject: string): Promise<Record<string, unknown>> {
  const nc = await connectWithCreds(bus.busUrl, creds);
  try {
    const sub = nc.subscribe(subject, { max: 1, timeout: 5_000 });
    for await (const msg of sub) return json(msg.data);
    throw new Error(`nothing on ${subject}`);
  } finally {
    await nc.close();
  }
}

describe("agent bus connection", () => {
  let device: Device;
  let agent: ReturnType<typeof startAgentBus>;
  let observer: NatsConnection;
  beforeAll(async () => {
    device = await createDevice();
    agent = startAgentBus(device);
  });
  afterAll(async () => {
    await observer?.close();
    await agent?.stop();
  });

  it("fails `bus` with 'no bus credentials yet' until creds are given, then is ok", async () => {
    expect(await agent.checks.bus.run()).toMatchObject({ state: "fail", detail: "no bus credentials yet" });
    expect(await stateOf(agent.checks.persistence)).toBe("skipped");
    agent.connection.useCreds(await credsOf(device));
    expect(await becomes(agent.checks.bus, "ok")).toBe(true);
  });

  it("publishes heartbeats and telemetry under agents.<code>, seen by a client with the same creds", async () => {
    const creds = await credsOf(device);
    const beat = await firstMessage(creds, agent.subjects.heartbeat);
    expect(beat).toEqual({ version: AGENT_VERSION, uptime: expect.any(String), time: expect.any(String), state: "ok" });
    expect(await firstMessage(creds, agent.subjects.telemetry)).toEqual({ time: expect.any(String), cpu: 0.5 });
  });

  it("answers cmd.health with the readiness body and cmd.ping with a pong; other cmd subjects get no answer", async () => {
    observer = await connectWithCreds(bus.busUrl, await credsOf(device));
    const health = await observer.request(agent.subjects.command.health, "", { timeout: 2_000 });
    expect(json(health.data)).toEqual(agent.readiness.report().body);
    const ping = json((await observer.request(agent.subjects.command.ping, "", { timeout: 2_000 })).data);
    expect(ping).toEqual({ pong: true, version: AGENT_VERSION, time: expect.any(String) });
    await expect(observer.request(`agents.${device.code}.cmd.exec`, "rm -rf /", { timeout: 500 })).rejects.toThrow();
  });

  it("stores telemetry through JetStream once a stream captures agents.*.telemetry; `persistence` says which", async () => {
    expect(await agent.checks.persistence.run()).toEqual({ state: "ok", detail: "no stream captures agents.*.telemetry: telemetry is published, not stored" });
    // The default role restricts nothing, so the Thing's own creds may manage streams of its account.
    const jsm = await jetstreamManager(observer);
    await jsm.streams.add({ name: "AGENT_TELEMETRY", subjects: ["agents.*.telemetry"], max_bytes: 1 << 20 });
    expect(await agent.checks.persistence.run()).toEqual({ state: "ok", detail: "telemetry stored in stream AGENT_TELEMETRY" });
    expect(await eventually(async () => (await jsm.streams.info("AGENT_TELEMETRY")).state.messages > 0)).toBe(true);
  });

  it("fails `bus` within seconds of the hub stopping, saying why, and is ok again when it returns", async () => {
    await observer.close();
    await bus.stopNats();
    const stoppedAt = Date.now();
    expect(await becomes(agent.checks.bus, "fail", 5_000)).toBe(true);
    expect(Date.now() - stoppedAt).toBeLessThan(5_000);
    // First the closed connection, then the refused dials.
    expect(await eventually(async () => (await agent.checks.bus.run()).detail === "refused: connection refused")).toBe(true);
    expect(await stateOf(agent.checks.persistence)).toBe("skipped");
    await bus.startNats();
    expect(await becomes(agent.checks.bus, "ok", 10_000)).toBe(true);
    expect(agent.authErrors).toEqual([]);
  });

  it("cmd.rotate_creds calls the injected rotation and replies ok, or the error", async () => {
    // A device of its own: the agent above answers its own code's commands.
    const device = await createDevice();
    const thing = client(bus.platform.url);
    await thing.collection("things").authWithPassword(device.email, device.password);
    let rotations = 0;
    const rotating = startAgentBus(device, async () => {
      rotations++;
      if (rotations > 1) throw new Error("platform unreachable");
      await thing.send("/api/me/bus-creds/rotate", { method: "POST" });
      // What platform sync does: re-read the bus user and adopt it (read here as the owner: the Thing's
      // read of its own row is platform sync's control-plane change).
      rotating.connection.useCreds(await credsOf(device));
    });
    rotating.connection.useCreds(await credsOf(device));
    expect(await becomes(rotating.checks.bus, "ok")).toBe(true);
    const before = rotating.connection.current();
    // A rotation in the creation's second re-signs identical creds (same key, same issue second).
    await new Promise((r) => setTimeout(r, 1_100));
    const requester = await connectWithCreds(bus.busUrl, await credsOf(device));
    try {
      expect(json((await requester.request(rotating.subjects.command.rotateCreds, "", { timeout: 5_000 })).data)).toEqual({ ok: true });
      expect(await eventually(async () => rotating.connection.current() !== before && (await stateOf(rotating.checks.bus)) === "ok")).toBe(true);
      // The agent subscribes on its new connection as that opens; the hub knows of it a moment later.
      let refused: unknown;
      const answered = await eventually(async () => {
        refused = await requester.request(rotating.subjects.command.rotateCreds, "", { timeout: 5_000 }).then((m) => json(m.data), () => undefined);
        return refused !== undefined;
      });
      expect(answered).toBe(true);
      expect(refused).toEqual({ ok: false, error: "platform unreachable" });
    } finally {
      await requester.close();
      await rotating.stop();
    }
  });
});

/** Runs `scenario` with an agent's bus side for `device` connected (bus ok) on the creds `as` reads; stops it after. */
async function withConnectedAgent(device: Device, as: PocketBase, scenario: (agent: ReturnType<typeof startAgentBus>) => Promise<void>): Promise<void> {
  const agent = startAgentBus(device);
  try {
    agent.connection.useCreds(await credsOf(device, as));
    expect(await becomes(agent.checks.bus, "ok")).toBe(true);
    await scenario(agent);
  } finally {
    await agent.stop();
  }
}

describe("agent bus credentials refused by the hub", () => {
  it("revoke-and-replace: the auth error fires onAuthError, and useCreds(new) reconnects in the same process", async () => {
    const device = await createDevice();
    await withConnectedAgent(device, owner, async (agent) => {
      await owner.collection("bus_users").update(device.busUser, { revoke: true });
      expect(await eventually(async () => agent.authErrors.length > 0, 10_000)).toBe(true);
      expect(agent.authErrors[0].kind).toBe("authorization");
      expect(await agent.checks.bus.run()).toMatchObject({ state: "fail", detail: expect.stringMatching(/^authorization: /) });
      agent.connection.useCreds(await credsOf(device));
      expect(await becomes(agent.checks.bus, "ok")).toBe(true);
    });
  });

  it("a suspended bus user: the connection is refused, reported, with back-off rather than a tight loop", async () => {
    const device = await createDevice();
    await withConnectedAgent(device, owner, async (agent) => {
      await owner.collection("bus_users").update(device.busUser, { active: false });
      expect(await eventually(async () => agent.authErrors.length > 0, 10_000)).toBe(true);
      const first = agent.authErrors.length;
      await new Promise((r) => setTimeout(r, 4_000));
      // Back-off 200 ms doubling to 1 s: about 6 attempts in 4 s; a tight loop would make hundreds.
      const attempts = agent.authErrors.length - first;
      expect(attempts).toBeGreaterThanOrEqual(2);
      expect(attempts).toBeLessThanOrEqual(8);
      expect(await agent.checks.bus.run()).toMatchObject({ state: "fail", detail: expect.stringMatching(/^authorization: /) });
      // The same creds again (platform sync found nothing new) change nothing.
      agent.connection.useCreds(await credsOf(device));
      expect(await stateOf(agent.checks.bus)).toBe("fail");
    });
  });

  it("an organization suspended: disconnected, then back after the restore with the same creds and no action", async () => {
    const org = await su.collection("organizations").create({ name: "Suspended", code: unique("susp"), active: true });
    const other = await signedInOwner(bus.platform.url, su, org.id);
    const device = await createDevice(other);
    await withConnectedAgent(device, other, async (agent) => {
      await su.collection("organizations").update(org.id, { active: false });
      expect(await becomes(agent.checks.bus, "fail")).toBe(true);
      await new Promise((r) => setTimeout(r, 1_500));
      expect(await stateOf(agent.checks.bus)).toBe("fail");
      await su.collection("organizations").update(org.id, { active: true });
      expect(await becomes(agent.checks.bus, "ok")).toBe(true);
    });
  });

  it("warns on `persistence` where the organization's account has no persistence", async () => {
    const org = await su.collection("organizations").create({ name: "No persistence", code: unique("nopersist"), active: true });
    const account = await su.collection("bus_accounts").getFirstListItem(`organization = "${org.id}"`);
    await su.collection("bus_accounts").update(account.id, { limits: { ...account.limits, max_persist_disk_storage: 0, max_persist_memory_storage: 0 } });
    const other = await signedInOwner(bus.platform.url, su, org.id);
    const device = await createDevice(other);
    await withConnectedAgent(device, other, async (agent) => {
      const outcome = await agent.checks.persistence.run();
      expect(outcome).toMatchObject({ state: "warn", detail: expect.stringMatching(/^bus persistence unusable for this account: .+; telemetry is not stored$/) });
      expect(outcome.fix).toMatch(/max_persist/);
    });
  });
});
