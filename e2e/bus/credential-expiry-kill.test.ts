// The credential upkeep across the control plane's loss (issue 36): serve is SIGKILLed while it renews and
// prunes, and restarted with a shorter bus.user_credential_lifetime. Nothing acknowledged is undone: the
// suspended user's entry stays until the longest lifetime ever minted (not the new, shorter one) has passed
// its cutoff, its credential is refused by the hub at every attempt throughout, and renewal resumes by
// itself with the new lifetime.
import PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { busAccepts, eventually, startPlatformWithBus, type PlatformWithBus } from "../harness/bus";
import { createOrganization, unique } from "../harness/world";

const FIRST_LIFETIME_S = 10;
const SHORTER_LIFETIME_S = 3;
/** bus/expiry.ts: the longest lifetime plus a margin of one lifetime (below a minute). */
const PRUNED_AFTER_S = 2 * FIRST_LIFETIME_S;

let bus: PlatformWithBus;
let su: PocketBase;

beforeAll(async () => {
  bus = await startPlatformWithBus({ env: { PLATFORM_BUS_USER_CREDENTIAL_LIFETIME: `${FIRST_LIFETIME_S}s` } });
  su = await bus.platform.superuser();
}, 120_000);
afterAll(async () => {
  await bus?.stop();
});

const nowSeconds = () => Math.floor(Date.now() / 1000);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const payloadOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split(".")[1], "base64url").toString()) as { iat: number; exp: number };

describe("the credential upkeep across a SIGKILL of the control plane", () => {
  it("keeps the entry to the longest lifetime's horizon, refuses the suspended credential throughout, and renews again", async () => {
    const org = await createOrganization(su, "Killed");
    const kept = await su.collection("bus_users").create({ organization: org.id, name: unique("kept"), active: true });
    const user = await su.collection("bus_users").create({ organization: org.id, name: unique("suspended"), active: true });
    await su.collection("bus_users").update(user.id, { active: false });
    const account = await su.collection("bus_accounts").getFirstListItem(`organization = "${org.id}"`);
    const cutoff = (account.revocations as Record<string, number>)[user.public_key as string];
    expect(cutoff).toBeGreaterThan(0);

    const attempts: boolean[] = [];
    let probing = true;
    const probe = (async () => {
      while (probing) {
        attempts.push(await busAccepts(bus.busUrl, user.creds_file as string));
        await sleep(250);
      }
    })();
    try {
      await bus.platform.kill();
      await bus.platform.restart({ PLATFORM_BUS_USER_CREDENTIAL_LIFETIME: `${SHORTER_LIFETIME_S}s` });
      su = await bus.platform.superuser();
      const listed = async () => (user.public_key as string) in ((await su.collection("bus_accounts").getOne(account.id)).revocations as Record<string, number>);

      // Past the horizon the shorter lifetime alone would give, the entry is still there.
      while (nowSeconds() < cutoff + 2 * SHORTER_LIFETIME_S + 1) await sleep(250);
      expect(await listed()).toBe(true);
      expect(nowSeconds()).toBeLessThan(cutoff + PRUNED_AFTER_S);
      // Gone at the longest lifetime's horizon, by the restarted upkeep alone.
      expect(await eventually(async () => !(await listed()), (cutoff + PRUNED_AFTER_S + 5 - nowSeconds()) * 1000)).toBe(true);
      expect(nowSeconds()).toBeGreaterThanOrEqual(cutoff + PRUNED_AFTER_S);
      await sleep(2_000);
    } finally {
      probing = false;
      await probe;
    }
    expect(attempts.length).toBeGreaterThan(20);
    expect(attempts.filter(Boolean)).toEqual([]);

    // Renewal resumed with the new lifetime, and the hub takes the renewed credential.
    const renewed = await su.collection("bus_users").getOne(kept.id);
    const claims = payloadOf(renewed.jwt as string);
    expect(claims.exp - claims.iat).toBe(SHORTER_LIFETIME_S);
    expect(await busAccepts(bus.busUrl, renewed.creds_file as string)).toBe(true);
  }, 90_000);
});
