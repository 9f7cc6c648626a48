// Credentials that expire, are renewed, and revocation entries that leave the claim only once they refuse
// nothing more (issue 36 items 1, 2 and 4), on a real control plane and nats-server with a lifetime of
// seconds: the sidecar's upkeep runs every second. The revoked credential is presented to the hub every
// 250 ms from its revocation until well after its entry is pruned: refused at every attempt.
import { encodeUser, fmtCreds } from "@nats-io/jwt";
import { fromSeed } from "@nats-io/nkeys";
import PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { busAccepts, eventually, startPlatformWithBus, type PlatformWithBus } from "../harness/bus";
import { sqlite } from "../harness/sqlite";
import { PASSWORD, createMember, createOrganization, unique } from "../harness/world";

const LIFETIME_S = 6;
/** bus/expiry.ts: a lifetime plus a margin of one lifetime (below a minute) after the cutoff. */
const PRUNED_AFTER_S = 2 * LIFETIME_S;

let bus: PlatformWithBus;
let su: PocketBase;

beforeAll(async () => {
  bus = await startPlatformWithBus({ env: { PLATFORM_BUS_USER_CREDENTIAL_LIFETIME: `${LIFETIME_S}s` } });
  su = await bus.platform.superuser();
}, 120_000);
afterAll(async () => {
  await bus?.stop();
});

interface Payload {
  iat: number;
  exp?: number;
}
const payloadOf = (jwt: string): Payload => JSON.parse(Buffer.from(jwt.split(".")[1], "base64url").toString()) as Payload;
const nowSeconds = () => Math.floor(Date.now() / 1000);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function accountOf(organization: string) {
  return su.collection("bus_accounts").getFirstListItem(`organization = "${organization}"`);
}

async function newUser(organization: string) {
  return su.collection("bus_users").create({ organization, name: unique("expiring"), active: true });
}

describe("credentials with an expiry", () => {
  it("carry exp = iat + bus.user_credential_lifetime, and are renewed before it, the renewal taken by the hub", async () => {
    const org = await createOrganization(su, "Expiry");
    const user = await newUser(org.id);
    const first = payloadOf(user.jwt as string);
    expect(first.exp).toBe(first.iat + LIFETIME_S);
    expect(user.expires).toBe(first.exp);

    // Renewed with half its lifetime left: the same key, a later expiry.
    let renewed = user;
    expect(await eventually(async () => ((renewed = await su.collection("bus_users").getOne(user.id)).expires as number) > (first.exp as number), LIFETIME_S * 1000)).toBe(true);
    expect(renewed.public_key).toBe(user.public_key);
    expect(nowSeconds()).toBeLessThan(first.exp as number);

    // Past the first credential's expiry the hub refuses it, and takes the renewal.
    await sleep(((first.exp as number) + 2 - nowSeconds()) * 1000);
    expect(await busAccepts(bus.busUrl, user.creds_file as string)).toBe(false);
    const current = await su.collection("bus_users").getOne(user.id);
    expect(await busAccepts(bus.busUrl, current.creds_file as string)).toBe(true);
  }, 60_000);

  it("keeps a suspended user's entry until its credentials expired, refused by the hub before, at and after the pruning", async () => {
    const org = await createOrganization(su, "Prune");
    const user = await newUser(org.id);
    const suspended = await su.collection("bus_users").update(user.id, { active: false });
    const cutoff = (await accountOf(org.id)).revocations[user.public_key as string] as number;
    expect(cutoff).toBeGreaterThanOrEqual(payloadOf(user.jwt as string).iat);
    expect(suspended.expires).toBe(user.expires);

    let prunedAt = 0;
    const attempts: { at: number; accepted: boolean; listed: boolean }[] = [];
    while (Date.now() / 1000 < cutoff + PRUNED_AFTER_S + 6) {
      const listed = user.public_key as string in ((await accountOf(org.id)).revocations as Record<string, number>);
      if (!listed && prunedAt === 0) prunedAt = Date.now() / 1000;
      attempts.push({ at: Date.now() / 1000, accepted: await busAccepts(bus.busUrl, user.creds_file as string), listed });
      await sleep(250);
    }
    expect(attempts.filter((a) => a.accepted)).toEqual([]);
    // Pruned at its horizon, not before, and within the upkeep's period and a claim publication of it.
    expect(prunedAt).toBeGreaterThanOrEqual(cutoff + PRUNED_AFTER_S);
    expect(prunedAt).toBeLessThan(cutoff + PRUNED_AFTER_S + 4);
    expect(attempts.filter((a) => a.listed && a.at > prunedAt - 1).length).toBeGreaterThan(0);
    expect(attempts.filter((a) => !a.listed).length).toBeGreaterThanOrEqual(8);
    // Every claim of the pass was taken by the hub.
    expect(await eventually(async () => (await accountOf(org.id)).bus_confirmed === true, 5_000)).toBe(true);
  }, 60_000);

  it("revoke_users replaces every user's key under one wildcard cutoff: the old credentials refused, the new taken", async () => {
    const org = await createOrganization(su, "Wildcard");
    const owner = await createMember(su, org.id, "owner");
    const users = [await newUser(org.id), await newUser(org.id), await newUser(org.id)];
    await su.collection("bus_users").update(users[2].id, { active: false });
    const pb = new PocketBase(bus.platform.url);
    await pb.collection("users").authWithPassword(owner.email as string, PASSWORD);
    const response = await fetch(`${bus.platform.url}/api/org/bus-account/keys`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: pb.authStore.token },
      body: JSON.stringify({ action: "revoke_users" }),
    });
    expect(response.status).toBe(200);
    const account = await accountOf(org.id);
    expect(Object.keys(account.revocations as Record<string, number>)).toEqual(["*"]);
    for (const before of users.slice(0, 2)) {
      const after = await su.collection("bus_users").getOne(before.id);
      expect(after.public_key).not.toBe(before.public_key);
      expect(payloadOf(after.jwt as string).iat).toBeGreaterThan(account.revocations["*"] as number);
      expect(await eventually(async () => !(await busAccepts(bus.busUrl, before.creds_file as string)), 5_000)).toBe(true);
      expect(await busAccepts(bus.busUrl, after.creds_file as string)).toBe(true);
    }
  }, 60_000);

  it("refuses a credential minted before expiry throughout: a wildcard at the legacy second covers it before any entry goes, and stays", async () => {
    const org = await createOrganization(su, "Legacy");
    const kept = await newUser(org.id);
    const leaked = await newUser(org.id);
    // A credential as the platform minted them before expiry existed: no exp, for the leaked user's key.
    const account = await accountOf(org.id);
    const legacyJwt = await encodeUser("legacy", fromSeed(new TextEncoder().encode(leaked.seed as string)), account.public_key as string, {}, {
      signer: fromSeed(new TextEncoder().encode((account.signing_seeds as string[])[0])),
    });
    const legacyCreds = new TextDecoder().decode(fmtCreds(legacyJwt, fromSeed(new TextEncoder().encode(leaked.seed as string))));
    expect(payloadOf(legacyJwt).exp).toBeUndefined();
    expect(await busAccepts(bus.busUrl, legacyCreds)).toBe(true);
    // What migration 1764000015 leaves: the account's last unexpiring issue second, a row without expiry.
    const until = nowSeconds();
    await su.collection("bus_accounts").update(account.id, { unexpiring_until: until });
    await su.collection("bus_users").update(kept.id, { expires: 0 });

    await su.collection("bus_users").update(leaked.id, { active: false });
    const cutoff = (await accountOf(org.id)).revocations[leaked.public_key as string] as number;
    const refusedThroughout: boolean[] = [];
    while (nowSeconds() < cutoff + PRUNED_AFTER_S + 4) {
      refusedThroughout.push(!(await busAccepts(bus.busUrl, legacyCreds)));
      await sleep(250);
    }
    expect(refusedThroughout.every(Boolean)).toBe(true);
    // The row without expiry was renewed, then the wildcard signed at the legacy second; the suspended
    // key's entry went at its horizon; the wildcard stays, refusing the unexpiring credential for good.
    const after = await accountOf(org.id);
    expect(after.revocations).toEqual({ "*": until });
    expect(await busAccepts(bus.busUrl, legacyCreds)).toBe(false);
    const renewed = await su.collection("bus_users").getOne(kept.id);
    expect(payloadOf(renewed.jwt as string).iat).toBeGreaterThan(until);
    expect(await busAccepts(bus.busUrl, renewed.creds_file as string)).toBe(true);
  }, 60_000);

  it("migration 1764000015, applied by serve at an upgrade, marks each account whose users hold credentials minted without an expiry, and only those", async () => {
    const withUsers = await createOrganization(su, "Upgraded");
    // Suspended, so that serve's upkeep does not renew the row while the test makes it look old.
    const user = await su.collection("bus_users").update((await newUser(withUsers.id)).id, { active: false });
    const withoutUsers = await createOrganization(su, "Empty");
    // An upgrade as docs/operations.md has it: serve stopped, the state the previous release left (no
    // expiry on the rows, no mark on the accounts, the migration not run), serve started again. Beside a
    // serve that writes every second, `migrate up` meets its writes and fails with SQLITE_BUSY.
    await bus.platform.restart({}, () =>
      sqlite(bus.platform.dataDir, [
        `UPDATE bus_users SET expires = 0 WHERE organization IN ('${withUsers.id}', '${withoutUsers.id}');`,
        `UPDATE bus_accounts SET unexpiring_until = 0 WHERE organization IN ('${withUsers.id}', '${withoutUsers.id}');`,
        "DELETE FROM _migrations WHERE file = '1764000015_credential_expiry.js';",
      ].join("\n")),
    );
    su = await bus.platform.superuser();
    expect(sqlite(bus.platform.dataDir, "SELECT count(*) FROM _migrations WHERE file = '1764000015_credential_expiry.js';")).toBe("1");
    const marked = (await accountOf(withUsers.id)).unexpiring_until as number;
    expect(marked).toBeGreaterThanOrEqual(payloadOf(user.jwt as string).iat);
    expect(marked).toBeLessThanOrEqual(nowSeconds());
    expect((await accountOf(withoutUsers.id)).unexpiring_until).toBe(0);
  }, 60_000);
});
