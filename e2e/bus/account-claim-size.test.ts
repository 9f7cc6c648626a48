// An account claim is never larger than the bus takes (issue 36 item 3): a write whose claim would pass the
// bus's maximum payload is refused with its reason and writes nothing; a claim over half of it is taken by
// the real nats-server and shows in the claim-size metrics the alert reads (docs/alerts/platform-rules.yml).
import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { busAccepts, eventually, startPlatformWithBus, type PlatformWithBus } from "../harness/bus";
import { buildWorld, unique, type World } from "../harness/world";

let bus: PlatformWithBus;
let w: World;

beforeAll(async () => {
  bus = await startPlatformWithBus();
  w = await buildWorld(bus.platform);
}, 120_000);
afterAll(async () => {
  await bus?.stop();
});

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
/** A user public key's shape (U and 55 base32 characters): nats-server checks no revoked key's checksum. */
const userKeyShape = () => `U${Array.from({ length: 55 }, () => BASE32[randomInt(32)]).join("")}`;

/** `count` revocation entries, each cut off at `cutoff`. */
function revocations(count: number, cutoff: number): Record<string, number> {
  return Object.fromEntries(Array.from({ length: count }, () => [userKeyShape(), cutoff]));
}

async function metric(name: string): Promise<number> {
  const text = await (await fetch(`${bus.platform.url}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return Number(line?.split(" ")[1] ?? NaN);
}

describe("the account claim's size", () => {
  it("past half of the bus's maximum payload: taken by the bus, counted in the size buckets, every credential still judged", async () => {
    const account = w.a.bus_accounts;
    const user = await w.su.collection("bus_users").create({ organization: w.a.organization.id, name: unique("kept") });
    const revoked = await w.su.collection("bus_users").create({ organization: w.a.organization.id, name: unique("revoked") });
    const cutoff = Math.floor(Date.now() / 1000);
    const list = { ...revocations(6_000, cutoff), [revoked.public_key as string]: cutoff + 5 };
    const updated = await w.su.collection("bus_accounts").update(account.id, { revocations: list });
    expect((updated.jwt as string).length).toBeGreaterThan(1_048_576 / 2);
    expect(await eventually(async () => (await w.su.collection("bus_accounts").getOne(account.id)).bus_confirmed === true, 15_000)).toBe(true);
    expect(await busAccepts(bus.busUrl, user.creds_file as string)).toBe(true);
    expect(await eventually(async () => !(await busAccepts(bus.busUrl, revoked.creds_file as string)), 10_000)).toBe(true);

    expect(await metric("platform_account_claim_max_bytes")).toBe((updated.jwt as string).length);
    expect(await metric("platform_account_claim_limit_bytes")).toBe(1_048_576);
    const under = await metric('platform_account_claims{at_most_bytes="524288"}');
    const all = await metric('platform_account_claims{at_most_bytes="+Inf"}');
    expect(all - under).toBeGreaterThanOrEqual(1);
  });

  it("past the bus's maximum payload: the write is refused with its reason, and nothing of it is kept", async () => {
    const account = w.b.bus_accounts;
    const before = await w.su.collection("bus_accounts").getOne(account.id);
    const refusal = await w.su
      .collection("bus_accounts")
      .update(account.id, { revocations: revocations(11_500, Math.floor(Date.now() / 1000)) })
      .then(() => undefined, (err: { status: number; message: string }) => err);
    expect(refusal?.status).toBe(400);
    expect(refusal?.message).toMatch(/bus account claim would be \d+ bytes, more than the 1048576 the bus takes/);
    const after = await w.su.collection("bus_accounts").getOne(account.id);
    expect(after.jwt).toBe(before.jwt);
    expect(after.revocations).toEqual(before.revocations);
  });
});
