// Change notices over the bus (issue 37 items 1 and 4) on a real control plane and nats-server: a bus
// user's credential carries its notice slot; a change of the user reaches a subscriber holding it, and
// only it; a device that subscribes to another device's notice subject is refused by the bus, a wildcard
// over all notices delivers its own only, and no tenant credential can publish a notice. An overlay host's
// change reaches its Thing, a blocklist's the organization. Another
// organization's notices never reach this one's account.
import type { NatsConnection, Subscription } from "@nats-io/nats-core";
import PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountNoticeSubject, noticeSlotOf, overlayNoticeSubject, parseNotice, userNoticeSubject, type Notice } from "../../common/bus/notices";
import { connectWithCreds, eventually, startPlatformWithBus, type PlatformWithBus } from "../harness/bus";
import { migrateUp } from "../harness/platform";
import { sqlite } from "../harness/sqlite";
import { createOrganization, unique } from "../harness/world";
import { createFleet } from "../harness/fleet";
import { postThing } from "../harness/agent";

let bus: PlatformWithBus;
let su: PocketBase;
const open: NatsConnection[] = [];

beforeAll(async () => {
  bus = await startPlatformWithBus();
  su = await bus.platform.superuser();
}, 120_000);
afterAll(async () => {
  await Promise.allSettled(open.map((nc) => nc.close()));
  await bus?.stop();
});

interface Payload {
  nats: { tags?: string[]; issuer_account: string; sub?: { allow?: string[]; deny?: string[] }; pub?: { deny?: string[] } };
}
const payloadOf = (jwt: string): Payload => JSON.parse(Buffer.from(jwt.split(".")[1], "base64url").toString()) as Payload;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function newUser(organization: string) {
  return su.collection("bus_users").create({ organization, name: unique("noticed"), active: true });
}

async function connect(creds: string): Promise<NatsConnection> {
  const nc = await connectWithCreds(bus.busUrl, creds);
  open.push(nc);
  return nc;
}

/** The notices a subscription receives within `ms`. */
async function received(sub: Subscription, ms: number): Promise<Notice[]> {
  const notices: Notice[] = [];
  const done = (async () => {
    for await (const msg of sub) {
      const notice = parseNotice(msg.string());
      if (notice) notices.push(notice);
    }
  })();
  await sleep(ms);
  sub.unsubscribe();
  await done;
  return notices;
}

/** Whether the server refuses a subscription (a permissions violation closes nothing, it errs the subscription). */
async function subscriptionRefused(nc: NatsConnection, subject: string): Promise<boolean> {
  let refused = false;
  const sub = nc.subscribe(subject, { callback: (err) => { if (err) refused = true; } });
  await nc.flush();
  await sleep(300);
  sub.unsubscribe();
  return refused;
}

describe("change notices", () => {
  it("reach the user whose credential changed, and no other; other subjects are refused; nobody in the account can publish one", async () => {
    const org = await createOrganization(su, "Notices");
    const [alice, bob] = [await newUser(org.id), await newUser(org.id)];
    const aliceSlot = noticeSlotOf(payloadOf(alice.jwt as string).nats.tags);
    const bobSlot = noticeSlotOf(payloadOf(bob.jwt as string).nats.tags);
    expect(aliceSlot).toBeGreaterThan(0);
    expect(bobSlot).toBeGreaterThan(0);
    expect(bobSlot).not.toBe(aliceSlot);
    const account = payloadOf(alice.jwt as string).nats.issuer_account;

    const aliceNc = await connect(alice.creds_file as string);
    const own = aliceNc.subscribe(userNoticeSubject("*", aliceSlot as number));
    // A wildcard over every notice is admitted and delivers the holder's own only.
    const everything = aliceNc.subscribe("_PN.>");
    await aliceNc.flush();
    const ownNotices = received(own, 3_000);
    const wildcardNotices = received(everything, 3_000);
    await sleep(200);
    await su.collection("bus_users").update(alice.id, { regenerate: true });
    await su.collection("bus_users").update(bob.id, { regenerate: true });
    const mine = await ownNotices;
    expect(mine.map((n) => n.changed)).toContain("bus_user");
    const seen = await wildcardNotices;
    expect(seen.length).toBe(mine.length);

    // Bob's subject, named exactly, is refused to Alice; Alice's own is not.
    expect(await subscriptionRefused(aliceNc, userNoticeSubject(account, bobSlot as number))).toBe(true);
    expect(await subscriptionRefused(aliceNc, userNoticeSubject(account, aliceSlot as number))).toBe(false);

    // No tenant credential publishes a notice: Bob's forged notice for Alice never reaches her.
    const bobNc = await connect(bob.creds_file as string);
    const forgedSeen = received(aliceNc.subscribe(userNoticeSubject("*", aliceSlot as number)), 1_500);
    await sleep(200);
    bobNc.publish(userNoticeSubject(account, aliceSlot as number), JSON.stringify({ changed: "bus_user", revision: "forged" }));
    bobNc.publish(accountNoticeSubject(account), JSON.stringify({ changed: "account", revision: "forged" }));
    await bobNc.flush().catch(() => undefined);
    expect((await forgedSeen).map((n) => n.revision)).not.toContain("forged");
  });

  it("tell a Thing that its overlay host changed, and the organization that its blocklist did", async () => {
    const fleet = await createFleet(bus.platform, "Overlay notices");
    const network = await su.collection("overlay_networks").create({ organization: fleet.organizationId, name: "n", cidr: "10.61.0.0/16" });
    const made = await postThing(fleet.owner, { name: unique("host"), bus: { mode: "auto" }, overlay: { mode: "auto", network_id: network.id, overlay_ip: "10.61.0.2" } });
    const peer = await postThing(fleet.owner, { name: unique("peer"), bus: { mode: "auto" }, overlay: { mode: "auto", network_id: network.id, overlay_ip: "10.61.0.3" } });
    const thing = await su.collection("things").getOne(made.id);
    const user = await su.collection("bus_users").getOne(thing.bus_user as string);
    const slot = noticeSlotOf(payloadOf(user.jwt as string).nats.tags) as number;
    const nc = await connect(user.creds_file as string);
    const own = received(nc.subscribe(userNoticeSubject("*", slot)), 2_500);
    const blocklist = received(nc.subscribe(overlayNoticeSubject("*")), 2_500);
    await sleep(200);
    await su.collection("overlay_hosts").update(thing.overlay_host as string, { public_endpoint: "192.0.2.10:4242" });
    await su.collection("things").update(peer.id, { active: false });
    expect((await own).map((n) => n.changed)).toContain("overlay_host");
    expect((await blocklist).map((n) => n.changed)).toContain("overlay");
  });

  it("of another organization never reach this one's account", async () => {
    const [mine, theirs] = [await createOrganization(su, "Ours"), await createOrganization(su, "Theirs")];
    const listener = await newUser(mine.id);
    const other = await newUser(theirs.id);
    const nc = await connect(listener.creds_file as string);
    const everything = received(nc.subscribe("_PN.>"), 2_000);
    await sleep(200);
    await su.collection("bus_users").update(other.id, { regenerate: true });
    const theirAccount = payloadOf(other.jwt as string).nats.issuer_account;
    await su.collection("bus_accounts").update((await su.collection("bus_accounts").getFirstListItem(`organization = "${theirs.id}"`)).id, {}).catch(() => undefined);
    expect((await everything).length).toBe(0);
    expect(theirAccount).not.toBe(payloadOf(listener.jwt as string).nats.issuer_account);
  });

  it("concurrent creations in one organization each get a slot of their own, in their credential", async () => {
    const org = await createOrganization(su, "Racing");
    const created = await Promise.all(Array.from({ length: 12 }, () => newUser(org.id)));
    const slots = created.map((user) => user.notice_slot as number);
    expect(new Set(slots).size).toBe(12);
    expect(slots.every((slot) => slot >= 1 && slot <= 12)).toBe(true);
    expect(created.map((user) => noticeSlotOf(payloadOf(user.jwt as string).nats.tags))).toEqual(slots);

    // Through POST /api/org/things, whose credentials are minted before the transaction on a likely slot.
    const fleet = await createFleet(bus.platform, "Racing things");
    const things = await Promise.all(Array.from({ length: 8 }, () => postThing(fleet.owner, { name: unique("racer"), bus: { mode: "auto" } })));
    const users = await Promise.all(things.map(async (made) => su.collection("bus_users").getOne((await su.collection("things").getOne(made.id)).bus_user as string)));
    const thingSlots = users.map((user) => user.notice_slot as number);
    expect(new Set(thingSlots).size).toBe(8);
    expect(users.map((user) => noticeSlotOf(payloadOf(user.jwt as string).nats.tags))).toEqual(thingSlots);
  });

  it("migration 1764000017 gives existing users slots in creation order, and the upkeep re-mints their credentials to carry them", async () => {
    const org = await createOrganization(su, "Upgraded");
    const [first, second] = [await newUser(org.id), await newUser(org.id)];
    // What the previous release left: users without a slot or a tagged credential, the migration not run.
    const oldCreds = await su.collection("bus_users").update(first.id, { regenerate: true });
    sqlite(bus.platform.dataDir, [
      `UPDATE bus_users SET notice_slot = 0 WHERE organization = '${org.id}';`,
      "DELETE FROM _migrations WHERE file = '1764000017_change_notices.js';",
    ].join("\n"));
    const migrated = await migrateUp(bus.platform);
    expect(migrated.code, migrated.stderr).toBe(0);
    const slots = JSON.parse(sqlite(bus.platform.dataDir, `SELECT id, notice_slot FROM bus_users WHERE organization = '${org.id}' ORDER BY created, id;`, { json: true }) || "[]") as { id: string; notice_slot: number }[];
    expect(slots.map((row) => row.notice_slot)).toEqual([-1, -2]);
    expect(slots.map((row) => row.id)).toEqual([first.id, second.id]);

    // The upkeep (every minute at the default lifetime) re-mints them: positive slots, tagged credentials.
    let reminted = first;
    expect(await eventually(async () => (reminted = await su.collection("bus_users").getOne(first.id)).notice_slot === 1, 75_000)).toBe(true);
    expect(noticeSlotOf(payloadOf(reminted.jwt as string).nats.tags)).toBe(1);
    expect(reminted.public_key).toBe(oldCreds.public_key);
    expect(await eventually(async () => (await su.collection("bus_users").getOne(second.id)).notice_slot === 2, 10_000)).toBe(true);
  }, 120_000);
});
