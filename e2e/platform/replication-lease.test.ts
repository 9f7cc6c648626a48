// The write lease (issue 35 item 2): with replication into the bus, only the control plane holding the
// lease (a KV entry that lapses 10 s after its holder's last renewal) accepts writes. A second control
// plane serving a copy restored from the replica refuses writes while the primary lives; the primary is
// SIGKILLed and the copy takes the lease and writes; the old primary, restarted on its old disk, refuses
// writes and pushes no claim of its own.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startPlatformWithBus, type PlatformWithBus } from "../harness/bus";
import { REPO_ROOT } from "../harness/process";
import { replicationEnv, startPlatform, type Platform } from "../harness/platform";
import { unique } from "../harness/world";

const LITESTREAM = join(REPO_ROOT, "bin/litestream");
const REPLICATION = { PLATFORM_REPLICATION_SYNC_INTERVAL: "250ms" };
/** The lease's TTL (replication/process.ts) and a renewal interval on top, for a loaded machine. */
const TAKEOVER_MS = 10_000 + 5_000;

const scratch = mkdtempSync(join(tmpdir(), "replication-lease-"));
let primary: PlatformWithBus;
let copy: Platform | undefined;

/** POST an organization; the status the control plane answers with. */
async function createOrganization(platform: { url: string; superuser(): Promise<import("pocketbase").default> }, code: string): Promise<number> {
  const su = await platform.superuser();
  try {
    await su.collection("organizations").create({ name: code, code, active: true });
    return 200;
  } catch (err) {
    return (err as { status?: number }).status ?? 0;
  }
}

beforeAll(async () => {
  primary = await startPlatformWithBus({ env: await replicationEnv(REPLICATION) });
  await primary.platform.restart(); // serve's start with the bus up
}, 120_000);

afterAll(async () => {
  await copy?.stop();
  await primary?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe("the write lease", () => {
  it("lets the primary write once it holds the lease", async () => {
    const wrote = await eventually(async () => (await createOrganization(primary.platform, unique("first"))) === 200, 20_000);
    if (!wrote) console.log(primary.platform.log());
    expect(wrote).toBe(true);
    expect(primary.platform.log()).toContain("replication: this control plane holds the write lease");
  });

  it("reports replication in its metrics and in `replication status`", async () => {
    const series = async () => (await (await fetch(`${primary.platform.url}/metrics`)).text());
    const value = (text: string, name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1] ?? NaN);
    expect(await eventually(async () => value(await series(), "platform_replication_uploads_total") > 0, 20_000)).toBe(true);
    const text = await series();
    expect(value(text, "platform_replication_up")).toBe(1);
    expect(value(text, "platform_replication_last_upload_timestamp_seconds")).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(value(text, "platform_replication_lag_seconds")).toBeGreaterThanOrEqual(0);
    expect(text).not.toMatch(/organization="/);

    const status = await primary.platform.command(["replication", "status"]);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain("replication: on");
    expect(status.stdout).toContain("target: the bus's object store, bucket platform-records (1 replica,");
    expect(status.stdout).toMatch(/litestream: answering at 127\.0\.0\.1:\d+: \d+ uploads since it started; newest local transaction \d+/);
    expect(status.stdout).toMatch(/write lease: held by \S*\/[a-z0-9]{12}#[a-z0-9]{8} \(this data directory\)/);
  });

  it("a copy restored from the replica refuses writes (503, with the reason) while the primary holds the lease", async () => {
    const config = join(primary.platform.dataDir, ".replication/litestream.yml");
    const db = join(primary.platform.dataDir, "data.db");
    const restored = join(scratch, "restored.db");
    const restores = async () => {
      try {
        execFileSync(LITESTREAM, ["restore", "-force", "-config", config, "-o", restored, db], { stdio: "pipe", timeout: 60_000 });
        return true;
      } catch (err) {
        lastError = String((err as { stderr?: Buffer }).stderr ?? err);
        return false;
      }
    };
    let lastError = "";
    expect(await eventually(restores, 20_000), lastError + primary.platform.log().split("\n").filter((l) => /replication|litestream|level=(WARN|ERROR)/.test(l)).join("\n")).toBe(true);
    copy = await startPlatform({ env: await replicationEnv({ PLATFORM_BUS_SERVER_URL: primary.busUrl, ...REPLICATION }), seed: (dataDir) => copyFileSync(restored, join(dataDir, "data.db")) });
    const su = await copy.superuser();
    let refusal = "";
    const namesHolder = async () => {
      const answer = await su.collection("organizations").create({ name: "x", code: unique("copy"), active: true }).catch((err: { status: number; message: string }) => err);
      refusal = "status" in answer && answer.status === 503 ? answer.message : `written: ${JSON.stringify(answer)}`;
      return /another control plane holds the write lease/.test(refusal);
    };
    expect(await eventually(namesHolder, 20_000)).toBe(true);
    expect(refusal).toMatch(/^this control plane does not accept writes: another control plane holds the write lease\./);
    // Without the lease it does not stream its own database into the replica either.
    expect(copy.log()).not.toContain("replication: litestream streams");
    expect(copy.log()).toMatch(/replication: writes refused: the write lease is held by \S*\/[a-z0-9]{12}#[a-z0-9]{8}/);
  });

  it("the primary SIGKILLed, the copy takes the lease within its TTL and writes", async () => {
    if (!copy) throw new Error("no copy");
    await primary.platform.kill();
    const killed = Date.now();
    const target = copy;
    expect(await eventually(async () => (await createOrganization(target, unique("after"))) === 200, TAKEOVER_MS)).toBe(true);
    console.log(`the copy wrote ${Date.now() - killed} ms after the primary's SIGKILL`);
    expect(await eventually(async () => target.log().includes("replication: litestream streams"), 20_000)).toBe(true);
  });

  it("the old primary, restarted on its old disk, refuses writes and pushes no claim", async () => {
    await primary.platform.restart();
    expect(await createOrganization(primary.platform, unique("demoted"))).toBe(503);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await createOrganization(primary.platform, unique("demoted"))).toBe(503);
    expect(primary.platform.log()).toMatch(/replication: writes refused: the write lease is held by/);
    expect(primary.platform.log()).not.toMatch(/restart[\s\S]*bus: .* of .* accounts not confirmed/);
    // Litestream ran in its first life only.
    expect(primary.platform.log().split("replication: litestream streams").length - 1).toBe(1);
  });
});
