// Continuous replication of the record store (issue 35 item 1) with the pinned Litestream: serve started
// with replication.enabled streams data.db to the replica named by replication.url, or by default into the
// bus's own object store as the platform's records identity, which reaches that bucket and nothing else; a
// restore of the replica holds every row written; serve's stop uploads what was left.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { busAccepts, connectWithCreds, eventually, startPlatformWithBus, type PlatformWithBus } from "../harness/bus";
import { REPO_ROOT } from "../harness/process";
import { replicationEnv, startPlatform, type Platform } from "../harness/platform";
import { freePort } from "../harness/ports";
import { unique } from "../harness/world";

const LITESTREAM = join(REPO_ROOT, "bin/litestream");
const scratch = mkdtempSync(join(tmpdir(), "replication-"));
const platforms: Platform[] = [];

afterAll(async () => {
  for (const platform of platforms) await platform.stop();
  rmSync(scratch, { recursive: true, force: true });
});

/**
 * Restores the replica (a URL, or the database of a Litestream config) into a new file and counts the
 * organizations whose code starts with `prefix`.
 */
function restoredCount(replica: string | { config: string; db: string }, prefix: string, env: Record<string, string> = {}): number {
  const restored = join(scratch, `${unique("restored")}.db`);
  const from = typeof replica === "string" ? [replica] : ["-config", replica.config, replica.db];
  execFileSync(LITESTREAM, ["restore", "-o", restored, ...from], { stdio: "pipe", timeout: 60_000, env: { ...process.env, ...env } });
  return Number(execFileSync("sqlite3", [restored, `SELECT count(*) FROM organizations WHERE code LIKE '${prefix}%';`], { encoding: "utf8" }).trim());
}

/** Whether a restore finds `count` such organizations; false while the replica has no backup yet. */
function restoresWith(replica: Parameters<typeof restoredCount>[0], prefix: string, count: number, env: Record<string, string> = {}): boolean {
  try {
    return restoredCount(replica, prefix, env) === count;
  } catch {
    return false;
  }
}

describe("replication to a file replica", () => {
  it("streams every committed write", async () => {
    const url = `file://${join(scratch, "replica")}`;
    const platform = await startPlatform({ env: await replicationEnv({ PLATFORM_REPLICATION_URL: url, PLATFORM_REPLICATION_SYNC_INTERVAL: "500ms" }) });
    platforms.push(platform);
    expect(platform.log()).toContain(`replication: litestream streams ${join(platform.dataDir, "data.db")} to ${url}`);
    const su = await platform.superuser();
    const prefix = unique("rep");
    for (let i = 0; i < 20; i++) await su.collection("organizations").create({ name: `Replicated ${i}`, code: `${prefix}-${i}`, active: true });
    expect(await eventually(async () => restoresWith(url, prefix, 20), 15_000)).toBe(true);
  });

  it("uploads at serve's stop what the sync interval had not yet sent", async () => {
    const url = `file://${join(scratch, "replica-slow")}`;
    const platform = await startPlatform({ env: await replicationEnv({ PLATFORM_REPLICATION_URL: url, PLATFORM_REPLICATION_SYNC_INTERVAL: "1h" }) });
    platforms.push(platform);
    // Litestream opens the database at its first tick, a second after its start (its meta folder appears
    // then); a stop before that uploads nothing, and the rows, safe in data.db, go up at the next start.
    expect(await eventually(async () => existsSync(join(platform.dataDir, ".data.db-litestream")), 10_000)).toBe(true);
    const su = await platform.superuser();
    const prefix = unique("last");
    for (let i = 0; i < 5; i++) await su.collection("organizations").create({ name: `Written last ${i}`, code: `${prefix}-${i}`, active: true });
    await platform.stop();
    expect(restoredCount(url, prefix)).toBe(5);
  });

  it("keeps every write of concurrent writers while Litestream checkpoints (its commit never strands a transaction)", async () => {
    const env = await replicationEnv({ PLATFORM_REPLICATION_URL: `file://${join(scratch, "replica-busy")}` });
    const platform = await startPlatform({ env });
    platforms.push(platform);
    const checkpoints = async () => {
      const text = await fetch(`http://${env.PLATFORM_REPLICATION_METRICS_ADDR}/metrics`).then((r) => r.text(), () => "");
      return [...text.matchAll(/^litestream_checkpoint_count\{[^}]*\} (\S+)$/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
    };
    expect(await eventually(async () => existsSync(join(platform.dataDir, ".data.db-litestream")), 10_000)).toBe(true);
    const su = await platform.superuser();
    const before = await checkpoints();
    const prefix = unique("busy");
    const refused: string[] = [];
    let written = 0;
    let checkpointed = 0;
    // Four writers renaming their own organization (an update reads the row as committed, then writes)
    // until Litestream has checkpointed (committed to its own table) three times under them.
    const writer = async (n: number) => {
      const organization = await su.collection("organizations").create({ name: "Busy", code: `${prefix}-${n}`, active: true });
      for (let i = 0; checkpointed < 3 && written + refused.length < 20_000; i++) {
        await su
          .collection("organizations")
          .update(organization.id, { name: `Busy ${i}` })
          .then(() => written++, (err: unknown) => void refused.push(String(err)));
      }
    };
    const counting = (async () => {
      while (checkpointed < 3 && written + refused.length < 20_000) {
        checkpointed = (await checkpoints()) - before;
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
    await Promise.all([writer(1), writer(2), writer(3), writer(4), counting]);
    expect(checkpointed, `${written} written, ${refused.length} refused: ${refused[0]}`).toBeGreaterThanOrEqual(3);
    expect(refused).toEqual([]);
    expect(written).toBeGreaterThan(0);
  }, 180_000);

  it("replaces PocketBase's daily maintenance by one that leaves data.db's checkpoint to Litestream", async () => {
    const platform = await startPlatform({ env: await replicationEnv({ PLATFORM_REPLICATION_URL: `file://${join(scratch, "replica-daily")}` }) });
    platforms.push(platform);
    const su = await platform.superuser();
    const jobs = (await su.crons.getFullList()).filter((job) => job.id === "__pbDBOptimize__");
    expect(jobs.map((job) => job.expression)).toEqual(["0 0 * * *"]);
    await su.crons.run("__pbDBOptimize__");
    expect(await eventually(async () => platform.log().includes("replication: daily maintenance without data.db's checkpoint"), 10_000), platform.log()).toBe(true);
    expect(platform.log()).not.toMatch(/daily maintenance's .* failed/);
  });
});

describe("replication to an S3 replica", () => {
  it("streams every committed write through the same configuration (an S3 URL, the keys in serve's environment)", async () => {
    // gofakes3 (scripts/binaries.env) speaks S3's API from memory: an S3 service, not the platform's.
    const port = await freePort();
    const s3 = spawn(join(REPO_ROOT, "bin/gofakes3"), ["-backend", "memory", "-initialbucket", "records", "-host", `127.0.0.1:${port}`, "-quiet"], { stdio: "ignore" });
    try {
      const url = `s3://records/platform?endpoint=http://127.0.0.1:${port}&region=us-east-1&forcePathStyle=true`;
      // Litestream's S3 client cannot load a CA bundle (AWS_CA_BUNDLE) together with its own HTTP client.
      const keys = { AWS_ACCESS_KEY_ID: "platform-test", AWS_SECRET_ACCESS_KEY: "platform-test-secret", AWS_CA_BUNDLE: "" };
      const platform = await startPlatform({ env: await replicationEnv({ PLATFORM_REPLICATION_URL: url, PLATFORM_REPLICATION_SYNC_INTERVAL: "500ms", ...keys }) });
      platforms.push(platform);
      const su = await platform.superuser();
      const prefix = unique("s3");
      for (let i = 0; i < 10; i++) await su.collection("organizations").create({ name: `In S3 ${i}`, code: `${prefix}-${i}`, active: true });
      expect(await eventually(async () => restoresWith(url, prefix, 10, keys), 20_000), platform.log()).toBe(true);
      expect(platform.log()).not.toContain("platform-test-secret");
    } finally {
      s3.kill("SIGKILL");
    }
  });
});

describe("replication into the bus's object store", () => {
  let hub: PlatformWithBus;
  beforeAll(async () => {
    hub = await startPlatformWithBus({ env: await replicationEnv({ PLATFORM_REPLICATION_SYNC_INTERVAL: "500ms" }) });
    // The bus starts after the platform here; a restart is serve's start with the bus up.
    await hub.platform.restart();
  }, 120_000);
  afterAll(async () => {
    await hub?.stop();
  });

  it("streams every committed write into the bucket, as the records identity", async () => {
    expect(await eventually(async () => hub.platform.log().includes("replication: litestream streams"), 20_000)).toBe(true);
    expect(hub.platform.log()).toContain("replication: made bucket platform-records on the bus with 1 replica");
    const su = await hub.platform.superuser();
    const prefix = unique("bus-rep");
    for (let i = 0; i < 10; i++) await su.collection("organizations").create({ name: `On the bus ${i}`, code: `${prefix}-${i}`, active: true });
    const replica = { config: join(hub.platform.dataDir, ".replication/litestream.yml"), db: join(hub.platform.dataDir, "data.db") };
    expect(await eventually(async () => restoresWith(replica, prefix, 10), 20_000)).toBe(true);
  });

  it("retries uploads that fail while the bus is away, and reports the lag meanwhile", async () => {
    const metrics = async () => (await (await fetch(`${hub.platform.url}/metrics`)).text());
    const value = (text: string, name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1] ?? NaN);
    const su = await hub.platform.superuser();
    const prefix = unique("outage");
    // Once this control plane holds the write lease and its replica is current.
    expect(await eventually(async () => su.collection("organizations").create({ name: "before", code: unique("before"), active: true }).then(() => true, () => false), 20_000)).toBe(true);
    expect(await eventually(async () => value(await metrics(), "platform_replication_lag_seconds") === 0 && value(await metrics(), "platform_replication_uploads_total") > 0, 20_000)).toBe(true);
    await hub.stopNats();
    try {
      // The write lease holds for a few seconds more: these writes are acknowledged, not yet uploaded.
      for (let i = 0; i < 3; i++) await su.collection("organizations").create({ name: `${prefix}-${i}`, code: `${prefix}-${i}`, active: true });
      expect(await eventually(async () => value(await metrics(), "platform_replication_lag_seconds") > 0, 10_000)).toBe(true);
    } finally {
      await hub.startNats();
    }
    const replica = { config: join(hub.platform.dataDir, ".replication/litestream.yml"), db: join(hub.platform.dataDir, "data.db") };
    expect(await eventually(async () => restoresWith(replica, prefix, 3), 60_000)).toBe(true);
    expect(await eventually(async () => value(await metrics(), "platform_replication_lag_seconds") === 0, 30_000)).toBe(true);
  });

  it("gives the records identity its bucket and nothing else: no other subject, no tenant's account", async () => {
    const creds = readFileSync(join(hub.platform.dataDir, ".replication/replica.creds"), "utf8");
    expect(await busAccepts(hub.busUrl, creds)).toBe(true);
    const nc = await connectWithCreds(hub.busUrl, creds);
    try {
      const refused: string[] = [];
      void (async () => {
        for await (const status of nc.status()) if (status.type === "error") refused.push(String(status.error));
      })();
      nc.publish("tenant.anything", "x");
      nc.subscribe(">");
      await nc.flush();
      await eventually(async () => refused.length >= 2, 3_000);
      expect(refused.join(" ")).toMatch(/Permissions Violation for Publish to "tenant.anything"/i);
      expect(refused.join(" ")).toMatch(/Permissions Violation for Subscription to ">"/i);
      // Another bucket's API is refused too.
      await expect(nc.request("$JS.API.STREAM.INFO.OBJ_other", "", { timeout: 2_000 })).rejects.toThrow();
    } finally {
      await nc.close();
    }
    const operator = (await (await hub.platform.superuser()).collection("bus_system_operator").getFullList())[0];
    const accounts = await (await hub.platform.superuser()).collection("bus_accounts").getFullList();
    expect(accounts.map((a) => a.account_pub)).not.toContain(operator.records_account_pub);
  });
});
