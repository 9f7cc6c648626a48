// A restore never undoes what the hub already holds (issue 35 items 3 and 5): the record store is
// restored from a replica taken before a bus user was revoked, an organization suspended and another's
// keys all revoked and replaced (issue 36's wildcard); serve started on the restored copy reads each
// account's claim from the hub before it pushes any, keeps the revocation and the suspension (merged back
// into the records, the loss named in the log), and never re-admits the revoked credential or the
// suspended organization's. With the bus down at that start, writes are taken but their claims wait for
// the hub's to be read, and the first push once it answers reads them first.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { busAccepts, eventually, startPlatformWithBus, type PlatformWithBus } from "../harness/bus";
import { REPO_ROOT } from "../harness/process";
import { replicationEnv, startPlatform, type Platform } from "../harness/platform";
import PocketBase from "pocketbase";
import { PASSWORD, createMember, unique } from "../harness/world";

const LITESTREAM = join(REPO_ROOT, "bin/litestream");
const scratch = mkdtempSync(join(tmpdir(), "replication-restore-"));
const running: { stop(): Promise<void> }[] = [];

afterAll(async () => {
  for (const process of running.reverse()) await process.stop();
  rmSync(scratch, { recursive: true, force: true });
});

/** A control plane replicating into a file replica, with serve started again once its bus is up. */
async function replicatedHub(name: string): Promise<{ hub: PlatformWithBus; replica: string }> {
  const replica = `file://${join(scratch, name)}`;
  const hub = await startPlatformWithBus({ env: await replicationEnv({ PLATFORM_REPLICATION_URL: replica, PLATFORM_REPLICATION_SYNC_INTERVAL: "250ms" }) });
  running.push(hub);
  await hub.platform.restart(); // serve's start with the bus up
  return { hub, replica };
}

/** The replica restored to a file once it holds every bus user named, active: the restore point. */
async function restorePoint(replica: string, name: string, activeUsers: string[]): Promise<string> {
  const out = join(scratch, `${name}.db`);
  const restorable = async () => {
    try {
      execFileSync(LITESTREAM, ["restore", "-force", "-o", out, replica], { stdio: "pipe", timeout: 60_000 });
      const ids = activeUsers.map((id) => `'${id}'`).join(", ");
      const rows = execFileSync("sqlite3", [out, `SELECT count(*) FROM bus_users WHERE id IN (${ids}) AND active = 1;`], { encoding: "utf8" });
      return rows.trim() === String(activeUsers.length);
    } catch {
      return false;
    }
  };
  expect(await eventually(restorable, 20_000)).toBe(true);
  return out;
}

/** serve on a copy of the restore point, against the hub's bus. */
async function serveRestored(point: string, busUrl: string): Promise<Platform> {
  const restored = await startPlatform({ env: { PLATFORM_BUS_SERVER_URL: busUrl }, seed: (dataDir) => copyFileSync(point, join(dataDir, "data.db")) });
  running.push(restored);
  return restored;
}

/**
 * How long the restored copy may take to name what it merged: at its start, or, when a lookup failed on a
 * loaded machine, at the minute's reconcile.
 */
const MERGED_WITHIN_MS = 75_000;

describe("a restore taken before a revocation, a suspension and an account-wide revoke", () => {
  it("keeps all three at the hub and merges them back into the records", { timeout: 180_000 }, async () => {
    const { hub, replica } = await replicatedHub("replica");
    const su = await hub.platform.superuser();
    const kept = await su.collection("organizations").create({ name: "Kept", code: unique("kept"), active: true });
    const suspended = await su.collection("organizations").create({ name: "Suspended later", code: unique("later"), active: true });
    const revoked = await su.collection("bus_users").create({ organization: kept.id, name: unique("revoked") });
    const ofSuspended = await su.collection("bus_users").create({ organization: suspended.id, name: unique("member") });
    // An organization whose every key is revoked and replaced at once (a wildcard cutoff) after the restore point.
    const replaced = await su.collection("organizations").create({ name: "Replaced later", code: unique("replaced"), active: true });
    const owner = await createMember(su, replaced.id, "owner");
    const ofReplaced = await su.collection("bus_users").create({ organization: replaced.id, name: unique("device") });
    for (const creds of [revoked.creds_file, ofSuspended.creds_file, ofReplaced.creds_file]) expect(await eventually(() => busAccepts(hub.busUrl, creds), 5_000)).toBe(true);

    // The restore point: the replica as it is now, with both users admitted.
    const before = await restorePoint(replica, "before", [revoked.id, ofSuspended.id, ofReplaced.id]);

    // After the restore point: the revocation and the suspension reach the hub.
    await new Promise((r) => setTimeout(r, 1_100)); // a later issue second than the restored claims
    await su.collection("bus_users").update(revoked.id, { active: false });
    await su.collection("organizations").update(suspended.id, { active: false });
    const pb = new PocketBase(hub.platform.url);
    await pb.collection("users").authWithPassword(owner.email as string, PASSWORD);
    await pb.send("/api/org/bus-account/keys", { method: "POST", body: { action: "revoke_users" } });
    expect(await busAccepts(hub.busUrl, revoked.creds_file)).toBe(false);
    expect(await busAccepts(hub.busUrl, ofSuspended.creds_file)).toBe(false);
    expect(await busAccepts(hub.busUrl, ofReplaced.creds_file)).toBe(false);
    await hub.platform.kill();

    // The restored copy serves on the same hub.
    const target = await serveRestored(before, hub.busUrl);
    const named = [
      new RegExp(`account ${kept.code}'s claim issued .* were lost in the replication window; kept from the hub: 1 revocation`),
      new RegExp(`account ${suspended.code}'s claim issued .* were lost in the replication window; kept from the hub: 0 revocations and the suspension`),
      new RegExp(`account ${replaced.code}'s claim issued .* were lost in the replication window; kept from the hub: 1 revocation`),
    ];
    expect(await eventually(async () => named.every((line) => line.test(target.log())), MERGED_WITHIN_MS), target.log()).toBe(true);
    const rsu = await target.superuser();
    expect((await rsu.collection("bus_users").getOne(revoked.id)).active).toBe(false);
    expect((await rsu.collection("organizations").getOne(suspended.id)).active).toBe(false);
    // Whatever the restored copy publishes from now on, neither credential is admitted again.
    await new Promise((r) => setTimeout(r, 2_000));
    expect(await busAccepts(hub.busUrl, revoked.creds_file)).toBe(false);
    expect(await busAccepts(hub.busUrl, ofSuspended.creds_file)).toBe(false);
    const account = await rsu.collection("bus_accounts").getFirstListItem(`organization = "${kept.id}"`);
    expect(account.bus_confirmed).toBe(true);
    // The wildcard's replacements were lost: the restored copy replaced the key again, and only that works.
    expect(await busAccepts(hub.busUrl, ofReplaced.creds_file)).toBe(false);
    const rekeyed = await rsu.collection("bus_users").getOne(ofReplaced.id);
    expect(rekeyed.public_key).not.toBe(ofReplaced.public_key);
    expect(await eventually(() => busAccepts(hub.busUrl, rekeyed.creds_file as string), 10_000)).toBe(true);
  });
});

describe("a restored copy whose bus is down at its start", () => {
  it("takes writes but pushes no claim before the hub's are read, then keeps the hub's revocation", { timeout: 180_000 }, async () => {
    const { hub, replica } = await replicatedHub("replica-bus-down");
    const su = await hub.platform.superuser();
    const org = await su.collection("organizations").create({ name: "Down at start", code: unique("down"), active: true });
    const lost = await su.collection("bus_users").create({ organization: org.id, name: unique("lost") });
    const later = await su.collection("bus_users").create({ organization: org.id, name: unique("later") });
    for (const creds of [lost.creds_file, later.creds_file]) expect(await eventually(() => busAccepts(hub.busUrl, creds), 5_000)).toBe(true);
    const before = await restorePoint(replica, "before-bus-down", [lost.id, later.id]);

    // After the restore point the hub takes a revocation; then the control plane dies and the bus goes down.
    await new Promise((r) => setTimeout(r, 1_100)); // a later issue second than the restored claims
    await su.collection("bus_users").update(lost.id, { active: false });
    expect(await busAccepts(hub.busUrl, lost.creds_file)).toBe(false);
    await hub.platform.kill();
    await hub.stopNats();

    // The restored copy takes a write to the same account; its claim, signed without the hub's revocation
    // and later than it, is not pushed.
    const target = await serveRestored(before, hub.busUrl);
    const rsu = await target.superuser();
    const accountOf = () => rsu.collection("bus_accounts").getFirstListItem(`organization = "${org.id}"`);
    await rsu.collection("bus_users").update(later.id, { active: false });
    const waiting = await accountOf();
    expect(waiting.bus_confirmed).toBe(false);
    expect(waiting.bus_status).toMatch(/^not pushed yet: the hub's claim/);

    // The bus is back: the next push (the organization saved again) reads the hub's claims first.
    await hub.startNats();
    await rsu.collection("organizations").update(org.id, { active: true });
    const merged = new RegExp(`the hub's claim of account ${org.code}, issued .*, holds revocations the records' later claim lacked; kept from the hub: 1 revocation`);
    expect(await eventually(async () => merged.test(target.log()), MERGED_WITHIN_MS), target.log()).toBe(true);
    expect(await eventually(async () => (await accountOf()).bus_confirmed === true, 10_000)).toBe(true);
    expect(await busAccepts(hub.busUrl, lost.creds_file)).toBe(false);
    expect(await busAccepts(hub.busUrl, later.creds_file)).toBe(false);
    expect((await rsu.collection("bus_users").getOne(lost.id)).active).toBe(false);
  });
});
