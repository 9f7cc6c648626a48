// Revocations on a large account claim are committed as pending entries and signed after their write
// (issue 36 item 5; docs/bus.md "Deferred signing"), on a real nats-server: the answer says the bus has not
// confirmed them yet, the hub refuses every replaced, suspended or deleted credential moments later, a
// pending entry survives a SIGKILL of the control plane, and a revocation whose claim could not reach the
// bus is refused at its write.
import { randomInt } from "node:crypto";
import PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { busAccepts, eventually, startPlatformWithBus, type PlatformWithBus } from "../harness/bus";
import { sqlite } from "../harness/sqlite";
import { createOrganization, unique } from "../harness/world";

/** The claim's size from which revocations are signed after their write (bus/deferred-signing.ts). */
const DEFERRED_FROM_BYTES = 64 * 1024;
/** What the bus takes (its maximum payload), and so the largest claim a write may cause. */
const MAX_CLAIM_BYTES = 1_048_576;
/** The claim bytes one entry of a user key and a 10-digit cutoff takes: 4/3 of `,"U…":1764000000`. */
const ENTRY_CLAIM_BYTES = (70 * 4) / 3;

let bus: PlatformWithBus;
let su: PocketBase;

beforeAll(async () => {
  bus = await startPlatformWithBus();
  su = await bus.platform.superuser();
}, 120_000);
afterAll(async () => {
  await bus?.stop();
});

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
/** A user public key's shape (U and 55 base32 characters): nats-server checks no revoked key's checksum. */
const userKeyShape = () => `U${Array.from({ length: 55 }, () => BASE32[randomInt(32)]).join("")}`;
const revocations = (count: number, cutoff: number) => Object.fromEntries(Array.from({ length: count }, () => [userKeyShape(), cutoff]));
const claimRevocations = (jwt: string) =>
  (JSON.parse(Buffer.from(jwt.split(".")[1], "base64url").toString()) as { nats: { revocations?: Record<string, number> } }).nats.revocations ?? {};
const pendingEntries = () => Number(sqlite(bus.platform.dataDir, "SELECT COUNT(*) FROM _bus_pending_revocations;"));

/** An organization whose account's revocation list makes its claim `entries` entries long. */
async function accountWith(entries: number): Promise<{ organization: string; account: string; claimLength: number }> {
  const organization = await createOrganization(su, "Deferred");
  const account = await su.collection("bus_accounts").getFirstListItem(su.filter("organization = {:org}", { org: organization.id }));
  const updated = await su.collection("bus_accounts").update(account.id, { revocations: revocations(entries, Math.floor(Date.now() / 1000)) });
  return { organization: organization.id, account: account.id, claimLength: (updated.jwt as string).length };
}

/** Whether the account's claim lists every key, the bus confirmed it, and nothing is left pending. */
async function signedAndConfirmed(account: string, keys: string[]): Promise<boolean> {
  const record = await su.collection("bus_accounts").getOne(account);
  const listed = claimRevocations(record.jwt as string);
  return record.bus_confirmed === true && keys.every((key) => listed[key] > 0) && pendingEntries() === 0;
}

describe("revocations on a large account claim", () => {
  it("answer before the claim is signed, say so, and the hub refuses the replaced credential moments later", async () => {
    const { organization, account, claimLength } = await accountWith(1_000);
    expect(claimLength).toBeGreaterThan(DEFERRED_FROM_BYTES);
    const user = await su.collection("bus_users").create({ organization, name: unique("leaked") });
    expect(await busAccepts(bus.busUrl, user.creds_file as string)).toBe(true);

    const replaced = await su.collection("bus_users").update(user.id, { revoke: true });
    expect(replaced.public_key).not.toBe(user.public_key);
    expect(replaced.bus_confirmed).toBe(false);
    expect(replaced.bus_status).toMatch(/revocations committed; the claim is being signed and pushed to the bus/);

    expect(await eventually(() => signedAndConfirmed(account, [user.public_key as string]), 10_000)).toBe(true);
    expect(await busAccepts(bus.busUrl, user.creds_file as string)).toBe(false);
    expect(await busAccepts(bus.busUrl, replaced.creds_file as string)).toBe(true);
    expect((await su.collection("bus_users").getOne(user.id)).bus_confirmed).toBe(true);
  }, 60_000);

  it("concurrent revocations, suspensions and deletions of one account all reach its claim, and the hub refuses each", async () => {
    const { organization, account } = await accountWith(1_000);
    const users = await Promise.all(Array.from({ length: 12 }, () => su.collection("bus_users").create({ organization, name: unique("fleet") })));
    const writes = users.map((user, i) =>
      i % 3 === 0
        ? su.collection("bus_users").update(user.id, { revoke: true })
        : i % 3 === 1
          ? su.collection("bus_users").update(user.id, { active: false })
          : su.collection("bus_users").delete(user.id),
    );
    await Promise.all(writes);
    const keys = users.map((user) => user.public_key as string);
    expect(await eventually(() => signedAndConfirmed(account, keys), 20_000)).toBe(true);
    for (const user of users) expect(await busAccepts(bus.busUrl, user.creds_file as string), user.name as string).toBe(false);
  }, 60_000);

  it("a revocation pending when the control plane is SIGKILLed is signed and pushed at its restart", async () => {
    const { organization, account } = await accountWith(1_000);
    const user = await su.collection("bus_users").create({ organization, name: unique("suspended") });
    await su.collection("bus_users").update(user.id, { active: false });
    // Killed at once: the sidecar asks for the signature only after its gathering time (50 ms).
    await bus.platform.kill();
    expect(pendingEntries()).toBe(1);
    // Acknowledged, and not on the bus yet: what the restart must finish.
    expect(await busAccepts(bus.busUrl, user.creds_file as string)).toBe(true);

    await bus.platform.restart();
    su = await bus.platform.superuser();
    expect(await eventually(() => signedAndConfirmed(account, [user.public_key as string]), 20_000)).toBe(true);
    expect(await busAccepts(bus.busUrl, user.creds_file as string)).toBe(false);
  }, 90_000);

  it("a revocation whose claim would pass the bus's maximum payload is refused at its write, and nothing of it is kept", async () => {
    const user = await su.collection("bus_users").create({ organization: (await createOrganization(su, "Full")).id, name: unique("kept") });
    const account = await su.collection("bus_accounts").getFirstListItem(su.filter("organization = {:org}", { org: user.organization }));
    // Filled to less than one entry short of the limit: a first list measures the claim, a second fills it.
    const cutoff = Math.floor(Date.now() / 1000);
    const first = await su.collection("bus_accounts").update(account.id, { revocations: revocations(10_000, cutoff) });
    const fill = 10_000 + Math.floor((MAX_CLAIM_BYTES - (first.jwt as string).length) / ENTRY_CLAIM_BYTES);
    const full = await su.collection("bus_accounts").update(account.id, { revocations: revocations(fill, cutoff) });
    const room = MAX_CLAIM_BYTES - (full.jwt as string).length;
    expect(room).toBeGreaterThanOrEqual(0);
    expect(room).toBeLessThan(ENTRY_CLAIM_BYTES);

    const refusal = await su
      .collection("bus_users")
      .update(user.id, { active: false })
      .then(() => undefined, (err: { status: number; message: string }) => err);
    expect(refusal?.status).toBe(400);
    expect(refusal?.message).toMatch(/bus account claim would be \d+ bytes, more than the 1048576 the bus takes/);
    const after = await su.collection("bus_users").getOne(user.id);
    expect([after.active, after.public_key]).toEqual([true, user.public_key]);
    expect(pendingEntries()).toBe(0);
    expect((await su.collection("bus_accounts").getOne(account.id)).jwt).toBe(full.jwt);
    expect(await busAccepts(bus.busUrl, user.creds_file as string)).toBe(true);
  }, 90_000);
});
