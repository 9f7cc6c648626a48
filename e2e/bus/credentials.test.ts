// The bus credential service against the real pinned nats-server started from `bus export` (spec 3.2 bus
// rows, 4.2 bus routes, 6.2): minted credentials connect and are held to their permissions, tenants are
// isolated, revocations and suspensions disconnect and stay in force, signing keys rotate.
import type { NatsConnection } from "@nats-io/transport-node";
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { busAccepts, closedWithin, connectWithCreds, eventually, roundTrip, startPlatformWithBus, type PlatformWithBus } from "../harness/bus";
import { readyWhen } from "../harness/readiness";
import { PASSWORD, buildWorld, client, createMember, statusOf, unique, type Role, type World } from "../harness/world";

let bus: PlatformWithBus;
let w: World;
const open: NatsConnection[] = [];

beforeAll(async () => {
  bus = await startPlatformWithBus();
  w = await buildWorld(bus.platform);
}, 120_000);
afterAll(async () => {
  await Promise.all(open.map((nc) => nc.close().catch(() => undefined)));
  await bus?.stop();
});

async function dial(creds: string): Promise<NatsConnection> {
  const nc = await connectWithCreds(bus.busUrl, creds);
  open.push(nc);
  return nc;
}

/** Whether the creds are refused by the server now. */
async function refused(creds: string): Promise<boolean> {
  return !(await busAccepts(bus.busUrl, creds));
}

/** Messages `nc` receives on `subject` while `during` runs (and a moment after). */
async function received(nc: NatsConnection, subject: string, during: () => Promise<void>): Promise<string[]> {
  const got: string[] = [];
  const sub = nc.subscribe(subject, { callback: (_err, msg) => void got.push(msg.subject) });
  await nc.flush();
  await during();
  await new Promise((r) => setTimeout(r, 300));
  sub.unsubscribe();
  return got;
}

async function busUser(organization: string, extra: Record<string, unknown> = {}): Promise<RecordModel> {
  return w.su.collection("bus_users").create({ organization, name: unique("u"), ...extra });
}

/** A new member of `organization` with `role`, signed in. */
async function signedInMember(organization: string, role: Role): Promise<{ member: RecordModel; pb: PocketBase }> {
  const member = await createMember(w.su, organization, role);
  const pb = client(bus.platform.url);
  await pb.collection("users").authWithPassword(member.email as string, PASSWORD);
  return { member, pb };
}

/** Links the bus user to the user's membership (its only one). */
async function linkBusUser(userId: string, busUserId: string): Promise<void> {
  const membership = await w.su.collection("memberships").getFirstListItem(`user = "${userId}"`);
  await w.su.collection("memberships").update(membership.id, { bus_user: busUserId });
}

/** POST /api/me/bus-creds/rotate as `session`. */
async function rotate(session: PocketBase): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${bus.platform.url}/api/me/bus-creds/rotate`, { method: "POST", headers: { Authorization: session.authStore.token } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const account = (organization: string) => w.su.collection("bus_accounts").getFirstListItem(`organization = "${organization}"`);

describe("provisioning", () => {
  it("gives every organization an account the bus confirmed, and a default role", async () => {
    const a = await account(w.a.organization.id);
    expect(a).toMatchObject({ active: true, bus_confirmed: true });
    expect(a.public_key).toMatch(/^A[A-Z2-7]{55}$/);
    expect(a.limits).toEqual({ max_connections: 100, max_subscriptions: 5000, max_payload: 1048576, max_persist_disk_storage: 5368709120, max_persist_memory_storage: 67108864 });
    const roles = await w.su.collection("bus_roles").getFullList({ filter: `organization = "${w.a.organization.id}" && is_default = true` });
    expect(roles).toHaveLength(1);
    const operator = await w.su.collection("bus_system_operator").getFirstListItem("");
    const claims = JSON.parse(Buffer.from(operator.operator_jwt.split(".")[1], "base64url").toString());
    expect(claims).toMatchObject({ name: "iot-control-plane.operator", nats: { type: "operator", system_account: operator.sys_account_pub } });
  });

  it("refuses a second default role, naming the first", async () => {
    const owner = await w.client("owner");
    const second = await owner.collection("bus_roles").create({ organization: w.a.organization.id, name: unique("also-default"), is_default: true }).catch((e) => e);
    expect(second.status).toBe(400);
    expect(second.response.message).toBe(`The organization's default role is "default" already: clear its is_default first.`);
  });

  it("fails the organization's save when its bus records cannot be made; saving again retries", async () => {
    const code = unique("lonely");
    // A managed organization needs the provider's account, which this world has no operator org for yet.
    const refusal = await w.su.collection("organizations").create({ name: "Lonely", code, active: true, managed: true }).catch((e) => e);
    expect(refusal.status).toBe(400);
    expect(await w.su.collection("organizations").getFullList({ filter: `code = "${code}"` })).toEqual([]);
    const plain = await w.su.collection("organizations").create({ name: "Lonely", code, active: true });
    expect((await account(plain.id)).bus_confirmed).toBe(true);
  });
});

describe("account limits", () => {
  it("0 on either persistence limit leaves the account without persistence (spec 8.2), and a limit back on restores it", async () => {
    const org = await w.su.collection("organizations").create({ name: "No twin", code: unique("notwin"), active: true });
    const nc = await dial((await busUser(org.id)).creds_file);
    const jetstream = async (): Promise<{ error?: { description?: string } }> =>
      nc.request("$JS.API.INFO", "", { timeout: 5_000 }).then(
        (reply) => reply.json(),
        (e: Error) => ({ error: { description: e.message } }),
      );
    expect((await jetstream()).error).toBeUndefined();
    const operator = await w.client("operator");
    const { limits } = await account(org.id);
    for (const off of ["max_persist_memory_storage", "max_persist_disk_storage"]) {
      await operator.collection("bus_accounts").update((await account(org.id)).id, { limits: { ...limits, [off]: 0 } });
      expect(await eventually(async () => (await jetstream()).error !== undefined), off).toBe(true);
      expect((await jetstream()).error?.description, off).toMatch(/not enabled/i);
      await operator.collection("bus_accounts").update((await account(org.id)).id, { limits });
      expect(await eventually(async () => (await jetstream()).error === undefined), off).toBe(true);
    }
  });
});

describe("credentials", () => {
  it("connect and are held to their permissions", async () => {
    const role = await w.su.collection("bus_roles").create({
      organization: w.a.organization.id, name: "sensors",
      publish_permissions: { allow: ["telemetry.>"] },
      subscribe_permissions: { allow: ["telemetry.>", "_INBOX.>"] },
    });
    const sensor = await busUser(w.a.organization.id, { role: role.id });
    expect(sensor.publish_permissions).toEqual({ allow: ["telemetry.>"] });
    const observer = await dial((await busUser(w.a.organization.id)).creds_file);
    const nc = await dial(sensor.creds_file);
    expect(await received(observer, ">", async () => {
      nc.publish("telemetry.room1", "21.5");
      nc.publish("commands.room1", "reboot");
      await nc.flush();
    })).toEqual(["telemetry.room1"]);
  });

  it("are refused where their permissions would make a credential no client can present (a CONNECT line's 4 KiB)", async () => {
    const subjects = (count: number) => Array.from({ length: count }, (_, i) => `telemetry.site-${i}.temperature`);
    const owner = await w.client("owner");
    const name = unique("wide");
    const oversize = await owner.collection("bus_users").create({ organization: w.a.organization.id, name, publish_permissions: subjects(100) }).then(
      () => "created",
      (err: { status: number; response: { message: string } }) => `${err.status} ${err.response.message}`,
    );
    expect(oversize).toMatch(/^400 The permissions make a credential of \d+ bytes/);
    expect((await w.su.collection("bus_users").getList(1, 1, { filter: `name = "${name}"` })).totalItems).toBe(0);

    const user = await owner.collection("bus_users").create({ organization: w.a.organization.id, name, publish_permissions: subjects(40) });
    expect(await refused(user.creds_file)).toBe(false);
    expect(await statusOf(owner.collection("bus_users").update(user.id, { publish_permissions: subjects(100) }))).toBe(400);
    expect((await w.su.collection("bus_users").getOne(user.id)).jwt).toBe(user.jwt);
  });

  it("never cross tenants, except through an import the importing tenant declared", async () => {
    const inA = await dial((await busUser(w.a.organization.id)).creds_file);
    const inB = await dial((await busUser(w.b.organization.id)).creds_file);
    const seenByA = await received(inA, ">", async () => {
      inB.publish("private.room1", "from B");
      inB.publish("room1", "from B");
      // B exports telemetry.> and A imports it under partner.<B's code>.> (the world's seed).
      inB.publish("telemetry.room1", "shared by B");
      await inB.flush();
    });
    // The import maps the wildcard tail: telemetry.room1 arrives as partner.<code>.room1.
    expect(seenByA).toEqual([`partner.${w.b.organization.code}.room1`]);
  });
});

describe("bus user transitions", () => {
  it("suspension revokes: the open connection closes and the creds file is refused; reactivation mints a fresh one", async () => {
    const user = await busUser(w.a.organization.id);
    const nc = await dial(user.creds_file);
    const owner = await w.client("owner");
    await owner.collection("bus_users").update(user.id, { active: false });
    expect(await closedWithin(nc, 5_000)).toBe(true);
    expect(await refused(user.creds_file)).toBe(true);
    const a = await account(w.a.organization.id);
    expect(Object.keys(a.revocations)).toContain(user.public_key);
    expect(a.bus_confirmed).toBe(true);

    const back = await owner.collection("bus_users").update(user.id, { active: true });
    expect(back.creds_file).not.toBe(user.creds_file);
    expect(await refused(back.creds_file)).toBe(false);
    expect(await refused(user.creds_file)).toBe(true);
  });

  it("a bus user created suspended holds a refused credential, also once deleted; activation mints a working one", async () => {
    const owner = await w.client("owner");
    const user = await owner.collection("bus_users").create({ organization: w.a.organization.id, name: unique("born-off"), active: false });
    expect(user.creds_file).not.toBe("");
    // The writer stashed for the audit entry is not part of the response (its bus status is).
    expect(Object.keys(user).filter((key) => key.startsWith("@"))).toEqual([]);
    expect(await refused(user.creds_file)).toBe(true);
    expect(Object.keys((await account(w.a.organization.id)).revocations)).toContain(user.public_key);

    const back = await owner.collection("bus_users").update(user.id, { active: true });
    expect(await refused(back.creds_file)).toBe(false);
    expect(await refused(user.creds_file)).toBe(true);

    const deleted = await owner.collection("bus_users").create({ organization: w.a.organization.id, name: unique("born-off"), active: false });
    await owner.collection("bus_users").delete(deleted.id);
    expect(await refused(deleted.creds_file)).toBe(true);
  });

  it("revoke replaces a leaked key: the old one is cut off, the replacement works", async () => {
    const user = await busUser(w.a.organization.id);
    const nc = await dial(user.creds_file);
    const replaced = await (await w.client("admin")).collection("bus_users").update(user.id, { revoke: true });
    expect(replaced.active).toBe(true);
    expect(replaced.revoke).toBe(false);
    expect(replaced.public_key).not.toBe(user.public_key);
    expect(await closedWithin(nc, 5_000)).toBe(true);
    expect(await refused(user.creds_file)).toBe(true);
    expect(await refused(replaced.creds_file)).toBe(false);
  });

  it("regenerate re-signs the same key (a new credential even within the second it was minted) and is cleared", async () => {
    const user = await busUser(w.a.organization.id);
    const again = await (await w.client("owner")).collection("bus_users").update(user.id, { regenerate: true });
    expect(again.regenerate).toBe(false);
    expect(again.public_key).toBe(user.public_key);
    expect(again.creds_file).not.toBe(user.creds_file);
    expect(await refused(again.creds_file)).toBe(false);
    // Rotation re-signs for the same seed: the leaked file keeps working until a revoke.
    expect(await refused(user.creds_file)).toBe(false);
  });

  it("narrowed permissions bind at once: the earlier creds file of the key is cut off, the new one holds the new permissions", async () => {
    const user = await busUser(w.a.organization.id);
    const old = await dial(user.creds_file);
    const observer = await dial((await busUser(w.a.organization.id)).creds_file);
    const narrowed = await (await w.client("owner")).collection("bus_users").update(user.id, { publish_permissions: { allow: ["telemetry.>"] } });
    expect(narrowed.public_key).toBe(user.public_key);
    expect(await closedWithin(old, 5_000)).toBe(true);
    expect(await refused(user.creds_file)).toBe(true);
    const nc = await dial(narrowed.creds_file);
    expect(await received(observer, ">", async () => {
      nc.publish("telemetry.room1", "21.5");
      nc.publish("commands.room1", "reboot");
      await nc.flush();
    })).toEqual(["telemetry.room1"]);
    // Widened again: the narrowed file is cut off in turn, and a save that changes nothing cuts nothing.
    const widened = await (await w.client("admin")).collection("bus_users").update(user.id, { publish_permissions: null });
    expect(await refused(narrowed.creds_file)).toBe(true);
    expect(await refused(widened.creds_file)).toBe(false);
    await (await w.client("admin")).collection("bus_users").update(user.id, { name: unique("renamed") });
    expect(await refused(widened.creds_file)).toBe(false);
  });
});

describe("exports and imports the account claim cannot carry", () => {
  // Found by a black-box audit (2026-11-25): nats-server refuses a claim with one bad export as a whole,
  // so the account stayed at its last accepted claim and a suspension recorded after it never took.
  it("are refused, and a double-click is signed once, so a suspension still reaches the bus", async () => {
    const organization = (await w.su.collection("organizations").create({ name: "Exchange", code: unique("xchg"), active: true })).id;
    const { pb: owner } = await signedInMember(organization, "owner");
    const post = (collection: string, body: Record<string, unknown>) =>
      fetch(`${bus.platform.url}/api/collections/${collection}/records`, {
        method: "POST",
        headers: { Authorization: owner.authStore.token, "Content-Type": "application/json" },
        body: JSON.stringify({ organization, ...body }),
      }).then(async (r) => ({ status: r.status, message: ((await r.json()) as { message: string }).message }));

    const clicks = await Promise.all(Array.from({ length: 8 }, () => post("bus_account_exports", { name: "orders", subject: "orders.>", kind: "stream" })));
    expect(clicks.map((c) => c.status)).toEqual(Array(8).fill(200));
    expect(await post("bus_account_exports", { name: "eu", subject: "orders.eu", kind: "stream" })).toEqual({ status: 400, message: 'The stream export "orders.>" already covers "orders.eu".' });
    expect(await post("bus_account_exports", { name: "spaced", subject: "a b", kind: "stream" })).toEqual({ status: 400, message: 'Subject "a b" cannot contain whitespace.' });
    const exporter = w.b.bus_accounts.public_key;
    expect((await post("bus_account_imports", { name: "x", subject: "telemetry.>", kind: "stream", account_pub: exporter, local_subject: "x y.>" })).status).toBe(400);
    expect((await post("bus_account_imports", { name: "y", subject: "..", kind: "stream", account_pub: exporter })).status).toBe(400);

    const account = await w.su.collection("bus_accounts").getFirstListItem(`organization = "${organization}"`);
    expect(await eventually(async () => (await w.su.collection("bus_accounts").getOne(account.id)).bus_confirmed)).toBe(true);
    const claim = JSON.parse(Buffer.from((await w.su.collection("bus_accounts").getOne(account.id)).jwt.split(".")[1], "base64url").toString());
    expect(claim.nats.exports.filter((e: { subject: string }) => e.subject === "orders.>")).toHaveLength(1);
    const user = await busUser(organization, { active: true });
    expect(await refused(user.creds_file)).toBe(false);
    await owner.collection("bus_users").update(user.id, { active: false });
    expect(await eventually(() => refused(user.creds_file))).toBe(true);
  });
});

describe("a suspended bus user", () => {
  it("refuses regenerate and revoke with a 400 that says why, and changes nothing", async () => {
    const user = await busUser(w.a.organization.id, { active: false });
    const owner = await w.client("owner");
    for (const [body, word] of [[{ regenerate: true }, "regenerated"], [{ revoke: true }, "revoked"]] as const) {
      const response = await fetch(`${bus.platform.url}/api/collections/bus_users/records/${user.id}`, {
        method: "PATCH",
        headers: { Authorization: owner.authStore.token, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      expect({ status: response.status, body: await response.json() }).toEqual({
        status: 400,
        body: { status: 400, message: `A suspended bus user is reactivated, not ${word}.`, data: {} },
      });
    }
    const after = await w.su.collection("bus_users").getOne(user.id);
    expect([after.public_key, after.jwt, after.updated]).toEqual([user.public_key, user.jwt, user.updated]);
  });
});

describe("things.active cascade", () => {
  it("decommissioning a Thing revokes its bus user; reactivation issues a fresh credential, the old file stays dead", async () => {
    const owner = await w.client("owner");
    const created = await owner.send("/api/org/things", { method: "POST", body: { name: "cascade", bus: { mode: "auto" } } });
    const thing = await w.su.collection("things").getOne(created.id);
    const before = await w.su.collection("bus_users").getOne(thing.bus_user);
    const nc = await dial(before.creds_file);
    await owner.collection("things").update(thing.id, { active: false });
    expect(await closedWithin(nc, 5_000)).toBe(true);
    expect((await w.su.collection("bus_users").getOne(thing.bus_user)).active).toBe(false);
    expect(await refused(before.creds_file)).toBe(true);

    await owner.collection("things").update(thing.id, { active: true });
    const after = await w.su.collection("bus_users").getOne(thing.bus_user);
    expect(after.active).toBe(true);
    expect(await refused(after.creds_file)).toBe(false);
    expect(await refused(before.creds_file)).toBe(true);
  });
});

describe("deletes", () => {
  it("a bus user deleted: its key is revoked, its open connection closes and its creds file is refused", async () => {
    const user = await busUser(w.a.organization.id);
    const nc = await dial(user.creds_file);
    await (await w.client("admin")).collection("bus_users").delete(user.id);
    expect(await closedWithin(nc, 5_000)).toBe(true);
    expect(await refused(user.creds_file)).toBe(true);
    expect(Object.keys((await account(w.a.organization.id)).revocations)).toContain(user.public_key);
  });

  it("an active Thing deleted: decommissioned first, its bus user suspended and its overlay host deactivated and blocked", async () => {
    const owner = await w.client("owner");
    const created = await owner.send("/api/org/things", {
      method: "POST",
      body: { name: "deleted", bus: { mode: "auto" }, overlay: { mode: "auto", network_id: w.a.overlay_networks.id, overlay_ip: "10.42.9.9" } },
    });
    const thing = await w.su.collection("things").getOne(created.id);
    const user = await w.su.collection("bus_users").getOne(thing.bus_user);
    const nc = await dial(user.creds_file);
    await owner.collection("things").delete(thing.id);
    expect(await closedWithin(nc, 5_000)).toBe(true);
    expect(await refused(user.creds_file)).toBe(true);
    expect((await w.su.collection("bus_users").getOne(thing.bus_user)).active).toBe(false);
    const host = await w.su.collection("overlay_hosts").getOne(thing.overlay_host);
    expect(host.active).toBe(false);
    expect((await w.su.collection("overlay_hosts").getOne(w.a.overlay_hosts.id)).config_yaml).toContain(host.fingerprint);
  });
});

describe("organization suspension", () => {
  it("disconnects every connection of the tenant, stays in force across restarts of both processes, leaves other tenants alone; restore re-admits the same creds", async () => {
    const org = await w.su.collection("organizations").create({ name: "Suspendable", code: unique("susp"), active: true });
    const users = [await busUser(org.id), await busUser(org.id)];
    const connections = await Promise.all(Array.from({ length: 50 }, (_, i) => dial(users[i % 2].creds_file)));
    const bystander = await dial((await busUser(w.b.organization.id)).creds_file);

    const operator = await w.client("operator");
    await operator.collection("organizations").update(org.id, { active: false });
    const closed = await Promise.all(connections.map((nc) => closedWithin(nc, 10_000)));
    expect(closed.filter(Boolean)).toHaveLength(50);
    expect(bystander.isClosed()).toBe(false);
    const suspended = await account(org.id);
    expect(suspended).toMatchObject({ active: false, bus_confirmed: true });
    // No revocations and no bus_users changes.
    expect(suspended.revocations ?? {}).toEqual({});
    expect((await w.su.collection("bus_users").getOne(users[0].id)).active).toBe(true);
    expect(await refused(users[0].creds_file)).toBe(true);

    await bus.stopNats();
    await bus.platform.restart();
    await bus.startNats();
    expect(await refused(users[0].creds_file)).toBe(true);

    await operator.collection("organizations").update(org.id, { active: true });
    expect(await eventually(async () => !(await refused(users[0].creds_file)))).toBe(true);
    expect(await refused(users[1].creds_file)).toBe(false);
  });

  it("leaves the account's own suspend switch to the operator when the organization is saved without a transition", async () => {
    const org = await w.su.collection("organizations").create({ name: "Switched", code: unique("switch"), active: true });
    const user = await busUser(org.id);
    const operator = await w.client("operator");
    await operator.collection("bus_accounts").update((await account(org.id)).id, { active: false });
    expect(await refused(user.creds_file)).toBe(true);

    const renamed = await operator.collection("organizations").update(org.id, { name: "Switched, renamed" });
    expect(Object.keys(renamed).filter((key) => key.startsWith("@"))).toEqual([]);
    expect(await account(org.id)).toMatchObject({ active: false, bus_confirmed: true });
    expect(await refused(user.creds_file)).toBe(true);

    // The organization's own transitions still carry over: reactivated, the account is restored.
    await operator.collection("organizations").update(org.id, { active: false });
    await operator.collection("organizations").update(org.id, { active: true });
    expect(await account(org.id)).toMatchObject({ active: true, bus_confirmed: true });
    expect(await refused(user.creds_file)).toBe(false);
  });

  it("keeps console sign-in and Thing tokens working while suspended", async () => {
    const org = await w.su.collection("organizations").create({ name: "Quiet", code: unique("quiet"), active: true });
    const owner = await createMember(w.su, org.id, "owner");
    const pb = client(bus.platform.url);
    await pb.collection("users").authWithPassword(owner.email as string, PASSWORD);
    const made = await pb.send("/api/org/things", { method: "POST", body: { name: "device" } });
    const device = client(bus.platform.url);
    await device.collection("things").authWithPassword(made.email, made.password);
    await w.su.collection("organizations").update(org.id, { active: false });
    await pb.collection("users").authWithPassword(owner.email as string, PASSWORD);
    expect((await device.collection("things").getOne(made.id)).id).toBe(made.id);
  });
});

describe("organization deletion", () => {
  it("withdraws the account of an organization deleted while active: its connections close, its creds are refused, other tenants stay", async () => {
    const org = await w.su.collection("organizations").create({ name: "Deletable", code: unique("del"), active: true });
    // An export and an import go with it; each one's delete re-signs the account, which must not stop the
    // cascade once the organization's row is gone.
    await w.su.collection("bus_account_exports").create({ organization: org.id, name: "telemetry", subject: "telemetry.>", kind: "stream" });
    await w.su.collection("bus_account_imports").create({
      organization: org.id, name: "partner", subject: "telemetry.>", kind: "stream",
      account_pub: w.b.bus_accounts.public_key, local_subject: "partner.>",
    });
    const user = await busUser(org.id);
    const connections = await Promise.all(Array.from({ length: 5 }, () => dial(user.creds_file)));
    const bystander = await dial((await busUser(w.b.organization.id)).creds_file);

    const operator = await w.client("operator");
    await operator.collection("organizations").delete(org.id);
    const closed = await Promise.all(connections.map((nc) => closedWithin(nc, 10_000)));
    expect(closed.filter(Boolean)).toHaveLength(5);
    expect(await refused(user.creds_file)).toBe(true);
    expect(bystander.isClosed()).toBe(false);
  });

  it("withdraws it once the bus is back when the deletion happened while the bus was down (serve's reconciliation)", async () => {
    const org = await w.su.collection("organizations").create({ name: "Deleted offline", code: unique("deloff"), active: true });
    const user = await busUser(org.id);
    expect(await refused(user.creds_file)).toBe(false);
    await bus.stopNats();
    await (await w.client("operator")).collection("organizations").delete(org.id);
    await bus.startNats();
    // The hub's resolver still holds the last claim it was given: the deleted tenant's creds get in.
    expect(await refused(user.creds_file)).toBe(false);
    await bus.platform.restart();
    expect(await eventually(() => refused(user.creds_file), 15_000)).toBe(true);
    // Logged once the bus confirmed the withdrawal, so it may reach the log just after the refusal shows.
    const logged = /bus: withdrew the account A[A-Z0-9]{55}: the bus held it without a row/;
    expect(await eventually(async () => logged.test(bus.platform.log()), 5_000), bus.platform.log()).toBe(true);
    expect(await refused((await busUser(w.b.organization.id)).creds_file)).toBe(false);
  });
});

describe("signing keys (POST /api/org/bus-account/keys)", () => {
  async function keys(pb: PocketBase, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${bus.platform.url}/api/org/bus-account/keys`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: pb.authStore.token },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it("add_signing keeps credentials valid; rotate invalidates them and re-mints the stored ones; the last key stays", async () => {
    const org = await w.su.collection("organizations").create({ name: "Keys", code: unique("keys"), active: true });
    const owner = await createMember(w.su, org.id, "owner");
    const viewer = await createMember(w.su, org.id, "viewer");
    const pb = client(bus.platform.url);
    await pb.collection("users").authWithPassword(owner.email as string, PASSWORD);
    const user = await busUser(org.id);
    const nc = await dial(user.creds_file);

    const added = await keys(pb, { action: "add_signing" });
    const acct = await account(org.id);
    expect(added).toEqual({ status: 200, body: { applied: "add_signing", bus_account: acct.id } });
    expect(acct.signing_keys).toHaveLength(2);
    expect(await refused(user.creds_file)).toBe(false);
    expect(nc.isClosed()).toBe(false);

    const second = acct.signing_keys[1];
    expect((await keys(pb, { action: "remove_signing", public_key: second })).status).toBe(200);
    expect((await keys(pb, { action: "remove_signing", public_key: acct.signing_keys[0] })).body.message).toBe("the last signing key cannot be removed");
    expect((await keys(pb, { action: "remove_signing" })).status).toBe(400);
    expect((await keys(pb, { action: "shred" })).status).toBe(400);
    const viewerPb = client(bus.platform.url);
    await viewerPb.collection("users").authWithPassword(viewer.email as string, PASSWORD);
    expect((await keys(viewerPb, { action: "rotate" })).status).toBe(403);
    // The role is checked before the body: a malformed one is no hint to a caller who may not act.
    expect((await keys(viewerPb, { action: "shred" })).status).toBe(403);
    expect((await keys(viewerPb, [])).status).toBe(403);

    expect((await keys(pb, { action: "rotate" })).status).toBe(200);
    expect(await eventually(async () => refused(user.creds_file))).toBe(true);
    const reminted = await w.su.collection("bus_users").getOne(user.id);
    expect(reminted.creds_file).not.toBe(user.creds_file);
    expect(await refused(reminted.creds_file)).toBe(false);
  });

  it("a Thing's bus user the things route creates while the keys rotate holds a credential of the key that signs when its row commits", async () => {
    // The route mints a Thing's credential before its transaction (lib/presigned.ts); one signed with a
    // key that rotate purged must not be stored once the rotation has committed.
    const org = await w.su.collection("organizations").create({ name: "Racing keys", code: unique("race"), active: true });
    const owner = client(bus.platform.url);
    await owner.collection("users").authWithPassword((await createMember(w.su, org.id, "owner")).email as string, PASSWORD);
    const creations = Array.from({ length: 40 }, (_, i) =>
      owner.send("/api/org/things", { method: "POST", body: { name: `racer ${i}`, bus: { mode: "auto" } } }) as Promise<{ id: string }>,
    );
    await new Promise((r) => setTimeout(r, 150));
    expect((await keys(owner, { action: "rotate" })).status).toBe(200);
    const created = await Promise.all(creations);
    const [signingKey] = (await account(org.id)).signing_keys as string[];
    const issuer = (jwt: string) => (JSON.parse(Buffer.from(jwt.split(".")[1], "base64url").toString()) as { iss: string }).iss;
    for (const made of created) {
      const thing = await w.su.collection("things").getOne(made.id);
      const user = await w.su.collection("bus_users").getOne(thing.bus_user);
      expect(issuer(user.jwt), user.name).toBe(signingKey);
    }
    const last = await w.su.collection("bus_users").getOne((await w.su.collection("things").getOne(created[created.length - 1].id)).bus_user);
    expect(await refused(last.creds_file)).toBe(false);
  });
  it("revoke_users across a second's tick adds no entry beside the wildcard", { timeout: 180_000 }, async () => {
    const org = await w.su.collection("organizations").create({ name: "Mass revoke", code: unique("mass"), active: true });
    const owner = await createMember(w.su, org.id, "owner");
    const pb = client(bus.platform.url);
    await pb.collection("users").authWithPassword(owner.email as string, PASSWORD);
    // Enough users that the revoke's transaction spans a second (each is re-keyed and re-minted).
    for (let batch = 0; batch < 20; batch++) await Promise.all(Array.from({ length: 10 }, () => busUser(org.id)));
    const issueSeconds = async () => new Set((await w.su.collection("bus_users").getFullList({ filter: `organization = "${org.id}"`, fields: "jwt" })).map((u) => JSON.parse(Buffer.from((u.jwt as string).split(".")[1], "base64url").toString()).iat as number));
    // Revoked until one revoke's new credentials were issued in two seconds or more: the clock ticked during it.
    let ticked = false;
    for (let attempt = 0; attempt < 3 && !ticked; attempt++) {
      expect((await keys(pb, { action: "revoke_users" })).status).toBe(200);
      ticked = (await issueSeconds()).size > 1;
      expect(Object.keys((await account(org.id)).revocations as Record<string, number>)).toEqual(["*"]);
    }
    expect(ticked).toBe(true);
  });
});

describe("POST /api/me/bus-creds/rotate", () => {
  it("re-signs the caller's linked identity for users and Things, with every status of 4.2", async () => {
    const org = await w.su.collection("organizations").create({ name: "Rotate", code: unique("rot"), active: true });
    const { member, pb } = await signedInMember(org.id, "member");
    expect((await rotate(pb)).status).toBe(404);
    const user = await busUser(org.id);
    await linkBusUser(member.id, user.id);
    expect(await rotate(pb)).toEqual({ status: 200, body: { rotated: true, bus_user: user.id } });
    const rotated = await pb.collection("bus_users").getOne(user.id);
    expect(rotated.regenerate).toBe(false);
    expect(await refused(rotated.creds_file)).toBe(false);

    await w.su.collection("bus_users").update(user.id, { active: false });
    expect((await rotate(pb)).status).toBe(403);

    const blank = await w.su.collection("users").create({ email: `${unique("blank")}@example.test`, password: PASSWORD, passwordConfirm: PASSWORD });
    const blankPb = client(bus.platform.url);
    await blankPb.collection("users").authWithPassword(blank.email as string, PASSWORD);
    expect((await rotate(blankPb)).status).toBe(400);

    const owner = await w.client("owner");
    const made = await owner.send("/api/org/things", { method: "POST", body: { name: "rotator", bus: { mode: "auto" } } });
    const device = client(bus.platform.url);
    await device.collection("things").authWithPassword(made.email, made.password);
    const thing = await w.su.collection("things").getOne(made.id);
    expect(await rotate(device)).toEqual({ status: 200, body: { rotated: true, bus_user: thing.bus_user } });
  });
});

describe("POST /api/me/bus-creds/rotate racing a suspension", () => {
  it("answers 200 when it commits first and the suspension's 403 otherwise, never another status", async () => {
    const org = await w.su.collection("organizations").create({ name: "Rotate race", code: unique("rr"), active: true });
    const { member, pb } = await signedInMember(org.id, "viewer");
    const user = await busUser(org.id);
    await linkBusUser(member.id, user.id);
    const { pb: ownerPb } = await signedInMember(org.id, "owner");
    for (let round = 0; round < 30; round++) {
      await ownerPb.collection("bus_users").update(user.id, { active: true });
      const [rotated] = await Promise.all([rotate(pb), ownerPb.collection("bus_users").update(user.id, { active: false })]);
      if (rotated.status !== 200) expect({ status: rotated.status, message: rotated.body.message }).toEqual({ status: 403, message: "the linked bus identity is suspended" });
    }
    const after = await w.su.collection("bus_users").getOne(user.id);
    expect(after.active).toBe(false);
    expect(await refused(after.creds_file)).toBe(true);
  });
});

describe("GET /api/me/leaf-config", () => {
  it("serves exactly the ten fields to a Thing, with public trust material and its own creds only", async () => {
    const owner = await w.client("owner");
    const made = await owner.send("/api/org/things", { method: "POST", body: { name: "gateway", bus: { mode: "auto" } } });
    const device = client(bus.platform.url);
    await device.collection("things").authWithPassword(made.email, made.password);
    const config = await device.send("/api/me/leaf-config", {});
    expect(Object.keys(config).sort()).toEqual([
      "account_jwt", "account_pub", "code", "creds", "domain", "hub_domain", "hub_leaf_url", "operator_jwt", "sys_account_jwt", "sys_account_pub",
    ]);
    const thing = await w.su.collection("things").getOne(made.id);
    const user = await w.su.collection("bus_users").getOne(thing.bus_user);
    const a = await account(w.a.organization.id);
    const operator = await w.su.collection("bus_system_operator").getFirstListItem("");
    expect(config).toMatchObject({
      code: made.code, domain: made.code, creds: user.creds_file, account_pub: a.public_key, account_jwt: a.jwt,
      operator_jwt: operator.operator_jwt, sys_account_pub: operator.sys_account_pub, sys_account_jwt: operator.sys_account_jwt,
      hub_leaf_url: `nats-leaf://127.0.0.1:${bus.ports.leafnode}`, hub_domain: "hub",
    });
    const text = JSON.stringify(config);
    for (const secret of [a.seed, ...(a.signing_seeds as string[]), operator.operator_seed, operator.signing_seed, operator.sys_account_seed, operator.sys_user_creds]) {
      expect(text).not.toContain(secret);
    }
    expect((await fetch(`${bus.platform.url}/api/me/leaf-config`, { headers: { Authorization: owner.authStore.token } })).status).toBe(403);
  });

  it("carries an ETag: an unchanged poll answers 304 with no body; a revoked credential changes the tag", async () => {
    const owner = await w.client("owner");
    const made = await owner.send("/api/org/things", { method: "POST", body: { name: unique("gateway"), bus: { mode: "auto" } } });
    const device = client(bus.platform.url);
    await device.collection("things").authWithPassword(made.email, made.password);
    const get = (headers: Record<string, string> = {}) =>
      fetch(`${bus.platform.url}/api/me/leaf-config`, { headers: { Authorization: device.authStore.token, ...headers } });

    const first = await get();
    expect(first.status).toBe(200);
    const tag = first.headers.get("ETag") ?? "";
    expect(tag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(first.headers.get("Cache-Control")).toBe("no-store");
    expect(Object.keys(await first.json())).toHaveLength(10);

    const unchanged = await get({ "If-None-Match": tag });
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers.get("ETag")).toBe(tag);
    expect(await unchanged.text()).toBe("");
    expect((await get({ "If-None-Match": `"other", W/${tag}` })).status).toBe(304);
    expect((await get({ "If-None-Match": '"other"' })).status).toBe(200);

    // Revoke-and-replace changes the creds: the old tag no longer matches, the new answer carries the new creds.
    const thing = await w.su.collection("things").getOne(made.id);
    await w.su.collection("bus_users").update(thing.bus_user, { revoke: true });
    const replaced = (await w.su.collection("bus_users").getOne(thing.bus_user)).creds_file as string;
    const after = await get({ "If-None-Match": tag });
    expect(after.status).toBe(200);
    expect(after.headers.get("ETag")).not.toBe(tag);
    expect(((await after.json()) as { creds: string }).creds).toBe(replaced);
  });
});

describe("a bus outage", () => {
  it("keeps the desired state, says it is unconfirmed, and converges when saved again once the bus is back", async () => {
    const org = await w.su.collection("organizations").create({ name: "Outage", code: unique("outage"), active: true });
    const user = await busUser(org.id);
    await bus.stopNats();
    const operator = await w.client("operator");
    const answer = await operator.collection("organizations").update(org.id, { active: false });
    expect(answer).toMatchObject({ active: false, bus_confirmed: false });
    expect(answer.bus_status).toMatch(/not confirmed/);
    const pending = await account(org.id);
    expect(pending).toMatchObject({ active: false, bus_confirmed: false });
    expect(pending.bus_status).toMatch(/not confirmed/);
    // In words an operator reads on the Organizations screen, without the sidecar's route.
    expect(pending.bus_status).toMatch(/^the bus has not confirmed it: the bus at nats:\/\/\S+ could not be reached/);
    expect(pending.bus_status).not.toContain("sidecar");
    await bus.startNats();
    const retried = await operator.collection("organizations").update(org.id, { active: false });
    expect(retried.bus_confirmed).toBe(true);
    expect((await account(org.id)).bus_confirmed).toBe(true);
    expect(await refused(user.creds_file)).toBe(true);
  });
});

describe("restart convergence", () => {
  it("publishes every account's recorded state when serve starts, before it first reports readiness", async () => {
    const org = await w.su.collection("organizations").create({ name: "Converge", code: unique("conv"), active: true });
    const user = await busUser(org.id);
    await bus.stopNats();
    await w.su.collection("organizations").update(org.id, { active: false });
    expect((await account(org.id)).bus_confirmed).toBe(false);
    await bus.startNats();
    // Nothing saved again: the restart alone converges, and the first probe follows the start's publication.
    await bus.platform.restart();
    await readyWhen(bus.platform.url, () => true);
    expect((await account(org.id)).bus_confirmed).toBe(true);
    expect(await refused(user.creds_file)).toBe(true);
  });
});

describe("managed organizations", () => {
  it("export the managed subtree to the provider, who receives it under <subtree>.<code>.>", async () => {
    const provider = await w.su.collection("organizations").create({ name: "Provider", code: unique("provider"), active: true, is_operator_org: true });
    const managed = await w.su.collection("organizations").create({ name: "Managed", code: unique("managed"), active: true, managed: true });
    const exported = await w.su.collection("bus_account_exports").getFirstListItem(`organization = "${managed.id}"`);
    expect(exported).toMatchObject({ subject: "helpdesk.>", kind: "stream" });
    const imported = await w.su.collection("bus_account_imports").getFirstListItem(`organization = "${provider.id}"`);
    expect(imported).toMatchObject({ subject: "helpdesk.>", local_subject: `helpdesk.${managed.code}.>`, account_pub: (await account(managed.id)).public_key });
    expect((await account(provider.id)).bus_confirmed).toBe(true);

    const desk = await dial((await busUser(provider.id)).creds_file);
    const tenant = await dial((await busUser(managed.id)).creds_file);
    expect(await received(desk, "helpdesk.>", async () => {
      tenant.publish("helpdesk.ticket1", "help");
      tenant.publish("private.x", "mine");
      await tenant.flush();
    })).toEqual([`helpdesk.${managed.code}.ticket1`]);
  });

  it("take the provider's import of them along when deleted, so their code can be managed again", async () => {
    const providers = await w.su.collection("organizations").getFullList({ filter: "is_operator_org = true" });
    const provider = providers[0] ?? (await w.su.collection("organizations").create({ name: "Provider", code: unique("provider"), active: true, is_operator_org: true }));
    const code = unique("gone");
    const imports = () => w.su.collection("bus_account_imports").getFullList({ filter: `organization = "${provider.id}" && local_subject = "helpdesk.${code}.>"` });
    const first = await w.su.collection("organizations").create({ name: "Managed once", code, active: true, managed: true });
    expect(await imports()).toHaveLength(1);
    await w.su.collection("organizations").delete(first.id);
    expect(await imports()).toHaveLength(0);
    expect(await account(provider.id)).toMatchObject({ bus_confirmed: true });

    const again = await w.su.collection("organizations").create({ name: "Managed again", code, active: true, managed: true });
    expect((await imports()).map((row) => row.account_pub)).toEqual([(await account(again.id)).public_key]);
  });
});

describe("bus.encryption_key", () => {
  it("seals seeds at rest, and a row written with the key is refused plainly without it", async () => {
    const key = "0123456789abcdef0123456789abcdef";
    const sealed = await startPlatformWithBus({ env: { PLATFORM_BUS_ENCRYPTION_KEY: key, PLATFORM_BUS_DEFAULT_LIMITS_MAX_CONNECTIONS: "2" } });
    try {
      const su = await sealed.platform.superuser();
      const org = await su.collection("organizations").create({ name: "Sealed", code: "sealed", active: true });
      const acct = await su.collection("bus_accounts").getFirstListItem(`organization = "${org.id}"`);
      const operator = await su.collection("bus_system_operator").getFirstListItem("");
      for (const value of [acct.seed, ...acct.signing_seeds, operator.operator_seed, operator.signing_seed, operator.sys_account_seed, operator.sys_user_creds]) {
        expect(value).toMatch(/^sealed:v1:/);
      }
      const user = await su.collection("bus_users").create({ organization: org.id, name: "u" });
      expect(user.seed).toMatch(/^sealed:v1:/);
      expect(user.creds_file).toContain("-----BEGIN USER NKEY SEED-----");
      // The limits configured at provisioning are the ones the server enforces.
      expect(acct.limits.max_connections).toBe(2);
      const first = await connectWithCreds(sealed.busUrl, user.creds_file);
      const second = await connectWithCreds(sealed.busUrl, user.creds_file);
      await expect(connectWithCreds(sealed.busUrl, user.creds_file).then(roundTrip)).rejects.toThrow();
      await first.close();
      await second.close();

      await sealed.platform.restart({ PLATFORM_BUS_ENCRYPTION_KEY: "" });
      const again = await sealed.platform.superuser();
      const refusal = await again.collection("bus_users").create({ organization: org.id, name: "v" }).catch((e) => e);
      expect(refusal.status).toBe(400);
      expect(JSON.stringify(refusal.response)).toContain("written with bus.encryption_key");
      expect(JSON.stringify(refusal.response)).not.toContain("sealed:v1:");
    } finally {
      await sealed.stop();
    }
  });
});

describe("suspend and restore within one second", () => {
  it("restores at once, however quickly it follows the suspension", async () => {
    const org = await w.su.collection("organizations").create({ name: "Blink", code: unique("blink"), active: true });
    const user = await busUser(org.id);
    const operator = await w.client("operator");
    for (let i = 0; i < 3; i++) {
      await operator.collection("organizations").update(org.id, { active: false });
      expect(await refused(user.creds_file)).toBe(true);
      await operator.collection("organizations").update(org.id, { active: true });
      expect(await refused(user.creds_file)).toBe(false);
    }
  });
});
