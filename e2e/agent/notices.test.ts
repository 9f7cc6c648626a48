// Change notices reach a running agent (issue 37 items 2 and 4): the real agent process, enrolled through
// POST /api/org/things, polls the platform once an hour; a revoke-and-replace of its bus identity is
// adopted through the notice (a rotation, which the hub refuses nothing of) or the hub's refusal (a
// revoke-and-replace), within seconds of the commit (the figures are printed; bench/notices.bench.ts
// measures the fan-out). With the bus down the notice cannot arrive and polling carries the change.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runBusDevice, type AgentProcess } from "../harness/agent";
import { busAccepts, startPlatformWithBus, type PlatformWithBus } from "../harness/bus";
import { createFleet, type Fleet } from "../harness/fleet";
import { checkBecomes } from "../harness/readiness";

let bus: PlatformWithBus;
let fleet: Fleet;
const scratch = mkdtempSync(join(tmpdir(), "agent-notices-"));
const running: AgentProcess[] = [];

beforeAll(async () => {
  bus = await startPlatformWithBus();
  fleet = await createFleet(bus.platform, "Notice fleet");
}, 120_000);
afterEach(async () => {
  await Promise.all(running.splice(0).map((agent) => agent.stop()));
});
afterAll(async () => {
  await bus?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

async function enrolledAgent(syncInterval: string) {
  const { made, stateDir, agent, url } = await runBusDevice(bus.platform.url, bus.busUrl, fleet.owner, scratch, { AGENT_PLATFORM_SYNC_INTERVAL: syncInterval });
  running.push(agent);
  const thing = await fleet.su.collection("things").getOne(made.id);
  return { agent, url, stateDir, busUser: thing.bus_user as string, creds: () => readFileSync(join(stateDir, "bus.creds"), "utf8") };
}

const adoptions = (agent: AgentProcess) => agent.logs.filter((line) => line.msg === "platform sync: new bus creds adopted").length;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Milliseconds from `change`'s commit to the agent's adoption of new creds (the poll alone would take an hour). */
async function adoptedAfter(device: { agent: AgentProcess }, change: () => Promise<unknown>): Promise<number> {
  const adoptedBefore = adoptions(device.agent);
  const committedAt = Date.now();
  await change();
  const adopted = await device.agent.waitForLog((line) => line.msg === "platform sync: new bus creds adopted" && adoptions(device.agent) > adoptedBefore, 30_000);
  return Date.parse(String(adopted.time)) - committedAt;
}

describe("change notices to a running agent", () => {
  it("a rotation reaches the agent only through its notice, and a revoke-and-replace through the hub's refusal, while the poll interval is an hour", async () => {
    const device = await enrolledAgent("1h");
    await device.agent.waitForLog((line) => line.msg === "notices: listening", 20_000);
    // Past the agent's spacing of requested syncs (agent/src/platform/sync.ts MIN_REQUEST_GAP_MS).
    await sleep(6_000);

    // A rotation re-signs the same key: the hub refuses nothing, so only the notice can tell the agent.
    const rotated = await adoptedAfter(device, () => fleet.su.collection("bus_users").update(device.busUser, { regenerate: true }));
    console.log(`rotation: new creds adopted by the agent ${rotated} ms after the commit (poll interval 1 h)`);
    expect(device.agent.logs.some((line) => line.msg === "notices: the platform says something changed")).toBe(true);

    // A revoke-and-replace: the revoked key's connection is closed by the hub at the claim's push, which
    // may come before the notice; either way the agent syncs at once and dials the replacement.
    await sleep(6_000);
    const before = device.creds();
    const replaced = await adoptedAfter(device, () => fleet.su.collection("bus_users").update(device.busUser, { revoke: true }));
    console.log(`revoke-and-replace: new creds adopted by the agent ${replaced} ms after the commit (poll interval 1 h)`);
    expect(device.creds()).not.toBe(before);
    expect(await busAccepts(bus.busUrl, before)).toBe(false);
    await checkBecomes(device.url, "bus", "ok", { path: "/ready", withinMs: 20_000 });
    expect(await busAccepts(bus.busUrl, device.creds())).toBe(true);
  });

  it("with the bus down, a change still arrives by polling", async () => {
    const device = await enrolledAgent("2s");
    const before = device.creds();
    await bus.stopNats();
    try {
      await adoptedAfter(device, () => fleet.su.collection("bus_users").update(device.busUser, { regenerate: true }));
      expect(device.creds()).not.toBe(before);
    } finally {
      await bus.startNats();
    }
  });
});
