// An agent adopts its renewed bus credential without a restart and without its bus connection going down
// (issue 36 item 1): a control plane minting credentials of 8 s, the agent's sync and bus connection
// composed as bus/component.ts composes them, its state sampled every 100 ms over three lifetimes. A
// device offline past its credential's expiry gets a working one at its next sync.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBusConnection, type BusConnection } from "../../agent/src/bus/connection";
import { createPlatformClient } from "../../agent/src/platform/client";
import { enroll } from "../../agent/src/platform/enroll";
import { readSession } from "../../agent/src/platform/session";
import { startPlatformSync, type PlatformSync } from "../../agent/src/platform/sync";
import { createLogger } from "../../agent/src/lib/log";
import { statePaths } from "../../agent/src/state-paths";
import { busAccepts, startPlatformWithBus, type PlatformWithBus } from "../harness/bus";
import { signedInOwner } from "../harness/fleet";
import { unique } from "../harness/world";

const LIFETIME_S = 8;
const SYNC_INTERVAL_MS = 1_000;

let bus: PlatformWithBus;
let scratch = "";
const stops: Array<() => unknown> = [];

beforeAll(async () => {
  bus = await startPlatformWithBus({ env: { PLATFORM_BUS_USER_CREDENTIAL_LIFETIME: `${LIFETIME_S}s` } });
  scratch = mkdtempSync(join(tmpdir(), "agent-renewal-"));
}, 120_000);
afterAll(async () => {
  for (const stop of stops) await stop();
  await bus?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Enrolled {
  code: string;
  stateDir: string;
}

async function enrolledDevice(): Promise<Enrolled> {
  const su = await bus.platform.superuser();
  const org = await su.collection("organizations").create({ name: "Renewal", code: unique("renewal"), active: true });
  const owner = await signedInOwner(bus.platform.url, su, org.id);
  const made = await owner.send("/api/org/things", { method: "POST", body: { name: unique("renewing"), bus: { mode: "auto" } } });
  const stateDir = join(scratch, made.code as string);
  await enroll(createPlatformClient(bus.platform.url, { timeoutMs: 5_000 }), made.email as string, made.password as string, stateDir);
  return { code: made.code as string, stateDir };
}

/** The device's sync and bus connection, wired as the agent wires them, from its state directory. */
async function runDevice(device: Enrolled): Promise<{ sync: PlatformSync; connection: BusConnection; adopted: string[] }> {
  const client = createPlatformClient(bus.platform.url, { timeoutMs: 5_000 });
  const paths = statePaths(device.stateDir);
  const session = readSession(paths.session);
  if (!session) throw new Error("no session after enroll");
  const logger = createLogger(() => {});
  const sync = startPlatformSync({ session, paths, client, intervalMs: SYNC_INTERVAL_MS, logger });
  const connection = startBusConnection({
    servers: [bus.busUrl],
    name: device.code,
    logger,
    onAuthError: () => void sync.requestSync("the hub refused the bus credential"),
    dialTimeoutMs: 2_000,
    backoff: { initialMs: 200, maxMs: 1_000 },
  });
  const adopted: string[] = [];
  sync.onBusCreds((creds) => {
    adopted.push(creds);
    connection.useCreds(creds);
  });
  // As bus/component.ts does: the creds on disk first, the sync's news after.
  connection.useCreds(readFileSync(paths.busCreds, "utf8"));
  stops.push(() => sync.stop(), () => connection.stop());
  sync.start();
  await sync.requestSync("test start");
  return { sync, connection, adopted };
}

async function connected(connection: BusConnection): Promise<boolean> {
  const deadline = Date.now() + 10_000;
  while (!connection.state().connected && Date.now() < deadline) await sleep(100);
  return connection.state().connected;
}

describe("an agent's renewed credential", () => {
  it("is adopted at each renewal with the bus connection up throughout", async () => {
    const { connection, adopted } = await runDevice(await enrolledDevice());
    expect(await connected(connection)).toBe(true);
    const down: string[] = [];
    const until = Date.now() + 3 * LIFETIME_S * 1000;
    while (Date.now() < until) {
      const state = connection.state();
      if (!state.connected) down.push(`${new Date().toISOString()} ${state.kind}: ${state.reason}`);
      await sleep(100);
    }
    expect(down).toEqual([]);
    // Renewed with half the lifetime left, so more often than once a lifetime.
    expect(adopted.length).toBeGreaterThanOrEqual(3);
    expect(await busAccepts(bus.busUrl, adopted[adopted.length - 1])).toBe(true);
    // The first credential has long expired: the connection is on a renewed one.
    expect(await busAccepts(bus.busUrl, adopted[0])).toBe(false);
  }, 60_000);

  it("reaches a device offline past its credential's expiry at its next sync", async () => {
    const device = await enrolledDevice();
    const first = await runDevice(device);
    expect(await connected(first.connection)).toBe(true);
    first.sync.stop();
    await first.connection.stop();
    const held = readFileSync(statePaths(device.stateDir).busCreds, "utf8");
    await sleep((LIFETIME_S + 2) * 1000);
    expect(await busAccepts(bus.busUrl, held)).toBe(false);

    const back = await runDevice(device);
    expect(back.adopted.length).toBeGreaterThan(0);
    expect(await connected(back.connection)).toBe(true);
    expect(await busAccepts(bus.busUrl, readFileSync(statePaths(device.stateDir).busCreds, "utf8"))).toBe(true);
  }, 60_000);
});
