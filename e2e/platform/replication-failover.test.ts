// A warm standby and its promotion (issue 35 items 2 and 5): a primary replicating into the bus takes a
// steady stream of writes; a standby (`scripts/platform standby`) follows the replica on another data
// directory; the primary is SIGKILLed; the standby is stopped and promoted (`scripts/platform promote`),
// serve starts on its directory, takes the write lease and answers /api/ready 200 with every write the
// primary acknowledged more than 2 s before the kill.
import { spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startPlatformWithBus, type PlatformWithBus } from "../harness/bus";
import { LAUNCHER, launch, replicationEnv, startPlatform, type Platform } from "../harness/platform";
import { getReady } from "../harness/readiness";
import { unique } from "../harness/world";

/** Issue 35 item 5: what the primary acknowledged this long before its loss is never lost. */
const ACKNOWLEDGED_BEFORE_MS = 2_000;

const scratch = mkdtempSync(join(tmpdir(), "replication-failover-"));
const standbyDir = join(scratch, "standby");
const credsCopy = join(scratch, "replica.creds");
let primary: PlatformWithBus;
let standby: ChildProcess | undefined;
let promoted: Platform | undefined;
let standbyLog = "";

beforeAll(async () => {
  primary = await startPlatformWithBus({ env: await replicationEnv() });
  // A bootstrapped platform, as `make run` makes one: /api/ready's bootstrap check holds on the promoted copy too.
  const bootstrapped = await primary.platform.command(["bootstrap", "--email", "operator@example.com", "--org", "System", "--operator-org", "Operators"]);
  if (bootstrapped.code !== 0) throw new Error(`bootstrap failed: ${bootstrapped.stderr}`);
  await primary.platform.restart(); // serve's start with the bus up
  const creds = join(primary.platform.dataDir, ".replication/replica.creds");
  if (!(await eventually(async () => existsSync(creds), 20_000))) throw new Error(`no replica creds: ${primary.platform.log()}`);
  writeFileSync(credsCopy, readFileSync(creds, "utf8"), { mode: 0o600 });
}, 120_000);

afterAll(async () => {
  standby?.kill("SIGKILL");
  await promoted?.stop();
  await primary?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe("a warm standby promoted after the primary's SIGKILL", () => {
  it("loses no write acknowledged more than 2 s before the kill, and serves /api/ready 200", async () => {
    const su = await primary.platform.superuser();
    expect(await eventually(async () => (await su.collection("organizations").create({ name: "first", code: unique("first"), active: true }).then(() => true, () => false)), 20_000)).toBe(true);

    standby = spawn(LAUNCHER, ["standby", "--creds", credsCopy, "--bus", primary.busUrl], { env: { ...process.env, PB_DATA_DIR: standbyDir } });
    standby.stdout?.on("data", (d: Buffer) => (standbyLog += d.toString()));
    standby.stderr?.on("data", (d: Buffer) => (standbyLog += d.toString()));
    expect(await eventually(async () => existsSync(join(standbyDir, "data.db-txid")), 30_000), standbyLog).toBe(true);

    // Steady writes, each acknowledged one recorded with its time.
    const acknowledged: { code: string; at: number }[] = [];
    let writing = true;
    const writer = (async () => {
      while (writing) {
        const code = unique("steady");
        const ok = await su.collection("organizations").create({ name: code, code, active: true }).then(() => true, () => false);
        if (ok) acknowledged.push({ code, at: Date.now() });
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    await new Promise((r) => setTimeout(r, 6_000));
    await primary.platform.kill();
    const killed = Date.now();
    writing = false;
    await writer;

    // The standby catches up with what reached the replica, then is stopped and promoted.
    await new Promise((r) => setTimeout(r, 3_000));
    const exited = new Promise((resolve) => standby?.once("exit", resolve));
    standby.kill("SIGTERM");
    await exited;
    const promotion = await launch(["promote", "--creds", credsCopy, "--bus", primary.busUrl], { ...process.env, PB_DATA_DIR: standbyDir }, scratch);
    expect(promotion.code, `${promotion.stdout}${promotion.stderr}`).toBe(0);
    expect(existsSync(join(standbyDir, "data.db-txid"))).toBe(false);

    promoted = await startPlatform({ env: await replicationEnv({ PLATFORM_BUS_SERVER_URL: primary.busUrl }), seed: (dataDir) => copyFileSync(join(standbyDir, "data.db"), join(dataDir, "data.db")) });
    const target = promoted;
    const ready = await eventually(async () => (await getReady(target.url)).status === 200, 30_000);
    expect(ready, JSON.stringify((await getReady(target.url)).body)).toBe(true);
    console.log(`promoted standby ready ${Date.now() - killed} ms after the primary's SIGKILL (promotion steps run in sequence by the test)`);

    const mustHave = acknowledged.filter((write) => write.at < killed - ACKNOWLEDGED_BEFORE_MS).map((write) => write.code);
    expect(mustHave.length).toBeGreaterThan(20);
    const present = new Set((await (await promoted.superuser()).collection("organizations").getFullList({ fields: "code" })).map((o) => o.code as string));
    expect(mustHave.filter((code) => !present.has(code))).toEqual([]);
    // The promoted control plane writes: it took the lease.
    const writes = await eventually(async () => (await (await target.superuser()).collection("organizations").create({ name: "after", code: unique("after"), active: true }).then(() => true, () => false)), 20_000);
    expect(writes).toBe(true);
  });
});
