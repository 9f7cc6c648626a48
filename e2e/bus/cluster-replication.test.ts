// The record store's replica on a hub of three nodes (issue 35 items 1 and 5): the bucket keeps three
// replicas, and replication goes on when the node Litestream is connected to dies: every row written
// before and after the kill restores from the replica, through the nodes still up.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../harness/bus";
import { NODES, startPlatformWithCluster, type PlatformWithCluster } from "../harness/cluster";
import { replicationEnv } from "../harness/platform";
import { REPO_ROOT } from "../harness/process";
import { unique } from "../harness/world";

const LITESTREAM = join(REPO_ROOT, "bin/litestream");
const scratch = mkdtempSync(join(tmpdir(), "cluster-replication-"));
let hub: PlatformWithCluster;

beforeAll(async () => {
  hub = await startPlatformWithCluster({ env: await replicationEnv({ PLATFORM_REPLICATION_SYNC_INTERVAL: "250ms" }) });
  await hub.platform.restart(); // serve's start with the nodes up
}, 180_000);

afterAll(async () => {
  await hub?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

/** What the last restore found, for the failure message: a count or why it failed. */
let lastRestore = "no restore yet";

/** The organizations whose code starts with `prefix` in a fresh restore of the replica; -1 while it fails. */
function restoredCount(prefix: string): number {
  const out = join(scratch, `${unique("restored")}.db`);
  const started = Date.now();
  try {
    execFileSync(LITESTREAM, ["restore", "-config", join(hub.platform.dataDir, ".replication/litestream.yml"), "-o", out, join(hub.platform.dataDir, "data.db")], { stdio: "pipe", timeout: 60_000 });
    const count = Number(execFileSync("sqlite3", [out, `SELECT count(*) FROM organizations WHERE code LIKE '${prefix}%';`], { encoding: "utf8" }).trim());
    lastRestore = `${count} rows restored in ${Date.now() - started} ms`;
    return count;
  } catch (err) {
    const failure = err as { stderr?: Buffer; message?: string };
    lastRestore = `restore failed after ${Date.now() - started} ms: ${failure.stderr?.toString().slice(-600) || failure.message}`;
    return -1;
  }
}

/** The running node holding Litestream's connection: the records account's connection not named as the lease's. */
async function nodeOfLitestream(accountPub: string): Promise<number | undefined> {
  for (let index = 0; index < NODES; index++) {
    const connz = await hub.monitor<{ connections?: { account?: string; name?: string }[] }>(index, "/connz?auth=true&limit=1024").catch(() => undefined);
    if (connz?.connections?.some((c) => c.account === accountPub && c.name !== "platform-lease")) return index;
  }
  return undefined;
}

describe("replication into a hub of three nodes", () => {
  it("keeps the bucket in three replicas", async () => {
    expect(await eventually(async () => hub.platform.log().includes("replication: made bucket platform-records on the bus with 3 replicas"), 30_000), hub.platform.log()).toBe(true);
    const jsz = await hub.monitor<{ account_details?: { stream_detail?: { name: string; config?: { num_replicas?: number } }[] }[] }>(0, "/jsz?accounts=true&streams=true&config=true");
    const stream = jsz.account_details?.flatMap((a) => a.stream_detail ?? []).find((s) => s.name === "OBJ_platform-records");
    expect(stream?.config?.num_replicas).toBe(3);
  });

  it("goes on when the node Litestream is connected to dies", async () => {
    const su = await hub.platform.superuser();
    const prefix = unique("cluster-rep");
    // A write may wait for the write lease while its holder's connection moves off a killed node.
    const write = async (i: number) => {
      const ok = await eventually(async () => su.collection("organizations").create({ name: `${prefix}-${i}`, code: `${prefix}-${i}`, active: true }).then(() => true, () => false), 30_000);
      if (!ok) throw new Error(`write ${i} was not acknowledged: ${hub.platform.log().split("\n").filter((l) => /replication|lease/.test(l)).slice(-10).join("\n")}`);
    };
    for (let i = 0; i < 10; i++) await write(i);
    const operator = (await su.collection("bus_system_operator").getFullList())[0];
    let node: number | undefined;
    expect(await eventually(async () => (node = await nodeOfLitestream(operator.records_account_pub as string)) !== undefined, 20_000)).toBe(true);
    await hub.killNode(node as number);
    const killed = Date.now();
    try {
      for (let i = 10; i < 20; i++) await write(i);
    } finally {
      await hub.startNode(node as number);
    }
    // Every row written before and during the node's absence reaches the replica: Litestream moved to
    // another node and uploaded on. (Read back with every node up: a restore during the loss is not the point.)
    const restored = await eventually(async () => restoredCount(prefix) === 20, 150_000);
    expect(restored, `${Date.now() - killed} ms after the kill; last restore: ${lastRestore}; log: ${hub.platform.log().split("\n").filter((l) => /replication|lease|level=(INFO|WARN|ERROR)/.test(l)).slice(-20).join("\n")}`).toBe(true);
    console.log(`every row on the replica ${Date.now() - killed} ms after the kill`);
  }, 300_000);
});
