// Continuous replication of the record store (issue 35 item 1) with the pinned Litestream: serve started
// with replication.enabled streams data.db to the replica named by replication.url, and a restore of that
// replica holds every row written; serve's stop uploads what was left.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { eventually } from "../harness/bus";
import { REPO_ROOT } from "../harness/process";
import { startPlatform, type Platform } from "../harness/platform";
import { unique } from "../harness/world";

const LITESTREAM = join(REPO_ROOT, "bin/litestream");
const scratch = mkdtempSync(join(tmpdir(), "replication-"));
const platforms: Platform[] = [];

afterAll(async () => {
  for (const platform of platforms) await platform.stop();
  rmSync(scratch, { recursive: true, force: true });
});

/** Restores the replica at `url` into a new file and counts the organizations whose code starts with `prefix`. */
function restoredCount(url: string, prefix: string): number {
  const restored = join(scratch, `${unique("restored")}.db`);
  execFileSync(LITESTREAM, ["restore", "-o", restored, url], { stdio: "pipe", timeout: 60_000 });
  return Number(execFileSync("sqlite3", [restored, `SELECT count(*) FROM organizations WHERE code LIKE '${prefix}%';`], { encoding: "utf8" }).trim());
}

describe("replication to a file replica", () => {
  it("streams every committed write", async () => {
    const url = `file://${join(scratch, "replica")}`;
    const platform = await startPlatform({ env: { PLATFORM_REPLICATION_ENABLED: "true", PLATFORM_REPLICATION_URL: url, PLATFORM_REPLICATION_SYNC_INTERVAL: "500ms" } });
    platforms.push(platform);
    expect(platform.log()).toContain(`replication: litestream streams ${join(platform.dataDir, "data.db")} to ${url}`);
    const su = await platform.superuser();
    const prefix = unique("rep");
    for (let i = 0; i < 20; i++) await su.collection("organizations").create({ name: `Replicated ${i}`, code: `${prefix}-${i}`, active: true });
    expect(await eventually(async () => restoredCount(url, prefix) === 20, 15_000)).toBe(true);
  });

  it("uploads at serve's stop what the sync interval had not yet sent", async () => {
    const url = `file://${join(scratch, "replica-slow")}`;
    const platform = await startPlatform({ env: { PLATFORM_REPLICATION_ENABLED: "true", PLATFORM_REPLICATION_URL: url, PLATFORM_REPLICATION_SYNC_INTERVAL: "1h" } });
    platforms.push(platform);
    const su = await platform.superuser();
    const prefix = unique("last");
    for (let i = 0; i < 5; i++) await su.collection("organizations").create({ name: `Written last ${i}`, code: `${prefix}-${i}`, active: true });
    await platform.stop();
    expect(restoredCount(url, prefix)).toBe(5);
  });
});
