// A restore never undoes what the hub already holds (issue 35 items 3 and 5): the record store is
// restored from a replica taken before a bus user was revoked, an organization suspended and another's
// keys all revoked and replaced (issue 36's wildcard); serve started
// on the restored copy reads each account's claim from the hub first, keeps the revocation and the
// suspension (merged back into the records, the loss named in the log), and never re-admits the revoked
// credential or the suspended organization's.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { busAccepts, eventually, startPlatformWithBus, type PlatformWithBus } from "../harness/bus";
import { REPO_ROOT } from "../harness/process";
import { replicationEnv, startPlatform, type Platform } from "../harness/platform";
import PocketBase from "pocketbase";
import { PASSWORD, createMember, unique } from "../harness/world";

const LITESTREAM = join(REPO_ROOT, "bin/litestream");
const scratch = mkdtempSync(join(tmpdir(), "replication-restore-"));
const replica = `file://${join(scratch, "replica")}`;
let hub: PlatformWithBus;
let restored: Platform | undefined;

beforeAll(async () => {
  hub = await startPlatformWithBus({ env: await replicationEnv({ PLATFORM_REPLICATION_URL: replica, PLATFORM_REPLICATION_SYNC_INTERVAL: "250ms" }) });
  await hub.platform.restart(); // serve's start with the bus up
}, 120_000);

afterAll(async () => {
  await restored?.stop();
  await hub?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe("a restore taken before a revocation, a suspension and an account-wide revoke", () => {
  it("keeps all three at the hub and merges them back into the records", async () => {
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
    const before = join(scratch, "before.db");
    const restorable = async () => {
      try {
        execFileSync(LITESTREAM, ["restore", "-force", "-o", before, replica], { stdio: "pipe", timeout: 60_000 });
        const rows = execFileSync("sqlite3", [before, `SELECT count(*) FROM bus_users WHERE id IN ('${revoked.id}', '${ofSuspended.id}', '${ofReplaced.id}') AND active = 1;`], { encoding: "utf8" });
        return rows.trim() === "3";
      } catch {
        return false;
      }
    };
    expect(await eventually(restorable, 20_000)).toBe(true);

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
    restored = await startPlatform({ env: { PLATFORM_BUS_SERVER_URL: hub.busUrl }, seed: (dataDir) => copyFileSync(before, join(dataDir, "data.db")) });
    const target = restored;
    const named = [
      new RegExp(`account ${kept.code}'s claim issued .* were lost in the replication window; kept from the hub: 1 revocation`),
      new RegExp(`account ${suspended.code}'s claim issued .* were lost in the replication window; kept from the hub: 0 revocations and the suspension`),
      new RegExp(`account ${replaced.code}'s claim issued .* were lost in the replication window; kept from the hub: 1 revocation`),
    ];
    expect(await eventually(async () => named.every((line) => line.test(target.log())), 20_000), target.log()).toBe(true);
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
