// POST /api/org/invites/accept (spec 3.2 Invitation rows, 4.2, 7) and invitation creation through the
// record API (spec 2.1 invites, rule 16, 8.1 invite validity).
import type PocketBase from "pocketbase";
import { ClientResponseError, type RecordModel } from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPlatform, type Platform } from "../harness/platform";
import { useWorld, client, createMember, createOrganization, createUser, PASSWORD, unique } from "../harness/world";

const DAY_MS = 24 * 3600 * 1000;

const { platform, world } = useWorld();

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** Raw POST so that statuses and bodies are asserted exactly, whatever the SDK would make of them. */
async function accept(pb: PocketBase | undefined, body: unknown): Promise<Answer> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (pb?.authStore.token) headers.Authorization = pb.authStore.token;
  const response = await fetch(`${platform.url}/api/org/invites/accept`, {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const routeError = (status: number, message: string) => ({ status, message, data: {} });

async function invite(organization: string, email: string, role = "member", extra: Record<string, unknown> = {}): Promise<RecordModel> {
  return world.su.collection("invites").create({ organization, email, role, ...extra });
}

/** A fresh user with no membership and a blank active organization, signed in. */
async function newcomer(email = `${unique("newcomer")}@example.test`): Promise<{ user: RecordModel; pb: PocketBase }> {
  const user = await createUser(world.su, email);
  const pb = client(platform.url);
  await pb.collection("users").authWithPassword(email, PASSWORD);
  return { user, pb };
}

async function signIn(user: RecordModel): Promise<PocketBase> {
  const pb = client(platform.url);
  await pb.collection("users").authWithPassword(user.email as string, PASSWORD);
  return pb;
}

const memberships = (userId: string) => world.su.collection("memberships").getFullList({ filter: `user = "${userId}"` });

/** The actor of the invitation's delete in the audit log (a SuperUser reads it). */
async function deletedBy(inviteId: string): Promise<string> {
  const entry = await world.su.collection("audit_logs").getFirstListItem(world.su.filter("record_id = {:id} && action = 'delete'", { id: inviteId }));
  return entry.actor as string;
}

async function exists(collection: string, id: string): Promise<boolean> {
  try {
    await world.su.collection(collection).getOne(id);
    return true;
  } catch (err) {
    if (err instanceof ClientResponseError && err.status === 404) return false;
    throw err;
  }
}

/** Everything a refused acceptance must leave untouched. */
async function snapshot(userId: string) {
  const [allMemberships, allInvites, user] = await Promise.all([
    world.su.collection("memberships").getList(1, 1),
    world.su.collection("invites").getList(1, 1),
    world.su.collection("users").getOne(userId),
  ]);
  return {
    memberships: allMemberships.totalItems,
    invites: allInvites.totalItems,
    own: (await memberships(userId)).length,
    current: user.current_organization,
  };
}

describe("POST /api/org/invites/accept: refusals write nothing", () => {
  it.each([
    ["no token", {}, "token is required"],
    ["an empty body", "", "request body must be a JSON object"],
    ["a blank token", { token: "   " }, "token is required"],
    ["a null token", { token: null }, "token is required"],
    ["a numeric token", { token: 42 }, "token must be a string"],
    ["an object token", { token: { $ne: "" } }, "token must be a string"],
    ["an array token", { token: ["x"] }, "token must be a string"],
  ])("400 for %s", async (_, body, message) => {
    const { user, pb } = await newcomer();
    const before = await snapshot(user.id);
    expect(await accept(pb, body)).toEqual({ status: 400, body: routeError(400, message) });
    expect(await snapshot(user.id)).toEqual(before);
  });

  it("404 for an unknown token; the invitation id is not a token", async () => {
    const { user, pb } = await newcomer();
    const pending = await invite(world.a.organization.id, user.email as string);
    const before = await snapshot(user.id);
    expect(await accept(pb, { token: "no-such-token" })).toEqual({ status: 404, body: routeError(404, "no invitation with that token") });
    expect(await accept(pb, { token: pending.id })).toEqual({ status: 404, body: routeError(404, "no invitation with that token") });
    expect(await snapshot(user.id)).toEqual(before);
    expect(await exists("invites", pending.id)).toBe(true);
  });

  it("403 for an invitation issued to another e-mail address; the invitation stays", async () => {
    const { user, pb } = await newcomer();
    const pending = await invite(world.a.organization.id, `${unique("someone-else")}@example.test`);
    const before = await snapshot(user.id);
    expect(await accept(pb, { token: pending.token })).toEqual({
      status: 403,
      body: routeError(403, "the invitation was issued to a different e-mail address"),
    });
    expect(await snapshot(user.id)).toEqual(before);
    expect(await exists("invites", pending.id)).toBe(true);
  });

  it("410 for an expired invitation, which is deleted; no membership", async () => {
    const { user, pb } = await newcomer();
    const expired = await invite(world.a.organization.id, user.email as string, "member", { expiry: new Date(Date.now() - 60_000).toISOString() });
    expect(expired.token).toMatch(/^[A-Za-z0-9]{43}$/);
    expect(await accept(pb, { token: expired.token })).toEqual({ status: 410, body: routeError(410, "the invitation has expired") });
    expect(await exists("invites", expired.id)).toBe(false);
    expect(await deletedBy(expired.id)).toBe(`users:${user.id}`);
    expect(await memberships(user.id)).toEqual([]);
    expect((await world.su.collection("users").getOne(user.id)).current_organization).toBe("");
    // Gone for good: a second attempt no longer finds it.
    expect((await accept(pb, { token: expired.token })).status).toBe(404);
  });

  it("403 for a look-alike address: KELVIN SIGN is not K, though full Unicode lower-casing says so", async () => {
    const rest = unique("ate");
    const kate = `k${rest}@example.test`;
    const kelvin = await newcomer(`\u212A${rest}@example.test`);
    const pending = await invite(world.a.organization.id, kate, "admin");
    const before = await snapshot(kelvin.user.id);
    expect(await accept(kelvin.pb, { token: pending.token })).toEqual({
      status: 403,
      body: routeError(403, "the invitation was issued to a different e-mail address"),
    });
    expect(await snapshot(kelvin.user.id)).toEqual(before);
    expect(await exists("invites", pending.id)).toBe(true);

    // The other way round: an invitation to the look-alike keeps its address, and only its holder redeems it.
    const toKelvin = await invite(world.a.organization.id, `\u212A${rest}@example.test`, "member");
    expect(toKelvin.email).toBe(`\u212A${rest}@example.test`);
    const real = await newcomer(kate);
    expect((await accept(real.pb, { token: toKelvin.token })).status).toBe(403);
    expect((await accept(kelvin.pb, { token: toKelvin.token })).status).toBe(200);
  });

  it("keeps a Unicode space around the address: only its holder redeems, not the address without it", async () => {
    for (const [at, space] of [["leading", "\u00A0"], ["trailing", "\uFEFF"], ["leading", "\u3000"]]) {
      const bare = `${unique("spaced")}@example.test`;
      const spaced = at === "leading" ? `${space}${bare}` : `${bare}${space}`;
      const holder = await newcomer(spaced);
      const plain = await newcomer(bare);
      const pending = await invite(world.a.organization.id, ` ${spaced} `, "admin");
      expect(pending.email).toBe(spaced); // the ASCII spaces go, the Unicode one stays
      const before = await snapshot(plain.user.id);
      expect(await accept(plain.pb, { token: pending.token })).toEqual({
        status: 403,
        body: routeError(403, "the invitation was issued to a different e-mail address"),
      });
      expect(await snapshot(plain.user.id)).toEqual(before);
      expect((await accept(holder.pb, { token: pending.token })).status).toBe(200);
    }
  });

  it("401 for an anonymous caller and 403 for a Thing session; the invitation stays", async () => {
    const pending = await invite(world.a.organization.id, world.a.things.email as string);
    const anonymous = await accept(undefined, { token: pending.token });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.status).toBe(401);
    const thing = await accept(await world.client("thing"), { token: pending.token });
    expect(thing).toEqual({ status: 403, body: routeError(403, "only user accounts can accept invitations") });
    expect(await exists("invites", pending.id)).toBe(true);
  });
});

describe("POST /api/org/invites/accept: redemption", () => {
  it("creates the membership with the invitation's role, sets a blank active organization, deletes the invitation", async () => {
    const { user, pb } = await newcomer();
    const pending = await invite(world.a.organization.id, user.email as string, "viewer");
    expect(await accept(pb, { token: pending.token })).toEqual({
      status: 200,
      body: { message: "invitation accepted", organization: world.a.organization.id },
    });
    const rows = await memberships(user.id);
    expect(rows.map((m) => [m.organization, m.role])).toEqual([[world.a.organization.id, "viewer"]]);
    expect((await world.su.collection("users").getOne(user.id)).current_organization).toBe(world.a.organization.id);
    expect(await exists("invites", pending.id)).toBe(false);
    // The new member reads the organization's inventory at once.
    expect((await pb.collection("things").getFullList()).map((t) => t.id)).toEqual([world.a.things.id]);
    // A consumed token cannot be replayed.
    expect(await accept(pb, { token: pending.token })).toEqual({ status: 404, body: routeError(404, "no invitation with that token") });
  });

  it("keeps an active organization that was already set", async () => {
    const user = await createMember(world.su, world.b.organization.id, "member");
    const pending = await invite(world.a.organization.id, user.email as string, "admin");
    expect(await accept(await signIn(user), { token: pending.token })).toEqual({
      status: 200,
      body: { message: "invitation accepted", organization: world.a.organization.id },
    });
    const rows = await memberships(user.id);
    expect(rows.map((m) => [m.organization, m.role]).sort()).toEqual(
      [[world.a.organization.id, "admin"], [world.b.organization.id, "member"]].sort(),
    );
    expect((await world.su.collection("users").getOne(user.id)).current_organization).toBe(world.b.organization.id);
    expect(await exists("invites", pending.id)).toBe(false);
  });

  it("matches the e-mail address case-insensitively, both ways", async () => {
    const local = unique("mixed");
    const { user, pb } = await newcomer(`${local}@example.test`);
    const pending = await invite(world.a.organization.id, `${local.toUpperCase()}@Example.TEST`, "member");
    expect(pending.email).toBe(`${local}@example.test`); // normalized on creation
    expect((await accept(pb, { token: pending.token })).status).toBe(200);
    expect((await memberships(user.id)).map((m) => m.organization)).toEqual([world.a.organization.id]);

    const other = unique("Capital");
    const upper = await newcomer(`${other}@Example.test`);
    const lower = await invite(world.a.organization.id, `${other.toLowerCase()}@example.test`, "member");
    expect((await accept(upper.pb, { token: lower.token })).status).toBe(200);
    expect((await memberships(upper.user.id)).map((m) => m.organization)).toEqual([world.a.organization.id]);
  });

  it("answers alreadyMember, deletes the invitation, and neither duplicates nor changes the membership", async () => {
    const member = world.users.member;
    const before = await memberships(member.id);
    const pending = await invite(world.a.organization.id, member.email as string, "admin");
    expect(await accept(await world.client("member"), { token: pending.token })).toEqual({
      status: 200,
      body: { message: "already a member of the organization", organization: world.a.organization.id, alreadyMember: true },
    });
    expect(await exists("invites", pending.id)).toBe(false);
    expect(await deletedBy(pending.id)).toBe(`users:${member.id}`);
    const after = await memberships(member.id);
    expect(after.map((m) => [m.id, m.organization, m.role])).toEqual(before.map((m) => [m.id, m.organization, m.role]));
    expect(after.find((m) => m.organization === world.a.organization.id)?.role).toBe("member");
  });

  it("lets a Platform Operator redeem an invitation like any user", async () => {
    const operator = await createUser(world.su, `${unique("op2")}@example.test`, { is_operator: true });
    const pending = await invite(world.b.organization.id, operator.email as string, "viewer");
    expect((await accept(await signIn(operator), { token: pending.token })).status).toBe(200);
    expect((await memberships(operator.id)).map((m) => [m.organization, m.role])).toEqual([[world.b.organization.id, "viewer"]]);
  });
});

describe("invitation creation", () => {
  const near = (iso: unknown, expected: number) => {
    const at = new Date(String(iso).replace(" ", "T")).getTime();
    expect(Math.abs(at - expected)).toBeLessThan(120_000);
  };

  it("gives an invitation created through the API a token and an expiry of now + 7 days", async () => {
    const owner = await world.client("owner");
    const created = await owner.collection("invites").create({ organization: world.a.organization.id, email: `${unique("x")}@example.test`, role: "member" });
    expect(created.token).toMatch(/^[A-Za-z0-9]{43}$/);
    near(created.expiry, Date.now() + 7 * DAY_MS);
    const other = await owner.collection("invites").create({ organization: world.a.organization.id, email: `${unique("y")}@example.test`, role: "member" });
    expect(other.token).not.toBe(created.token);
  });

  it("discards a token and an expiry sent by an API caller; a SuperUser may set them", async () => {
    const owner = await world.client("owner");
    const chosen = { token: "chosen-token-0123456789", expiry: "2099-01-01 00:00:00.000Z" };
    const created = await owner.collection("invites").create({ organization: world.a.organization.id, email: `${unique("z")}@example.test`, role: "member", ...chosen });
    expect(created.token).not.toBe(chosen.token);
    near(created.expiry, Date.now() + 7 * DAY_MS);
    const bySuperuser = await world.su.collection("invites").create({ organization: world.a.organization.id, email: `${unique("s")}@example.test`, role: "member", ...chosen });
    expect(bySuperuser.token).toBe(chosen.token);
    expect(bySuperuser.expiry).toBe(chosen.expiry);
  });

  it.each(["owner", "admin", "operator", "superuser"] as const)("refuses an invitation offering the owner role (%s)", async (who) => {
    const pb = who === "superuser" ? world.su : await world.client(who);
    const before = (await world.su.collection("invites").getList(1, 1)).totalItems;
    const email = `${unique("would-be-owner")}@example.test`;
    const attempt = pb.collection("invites").create({ organization: world.a.organization.id, email, role: "owner" });
    await expect(attempt).rejects.toMatchObject({ status: 400 });
    expect((await world.su.collection("invites").getList(1, 1)).totalItems).toBe(before);
    expect(await world.su.collection("invites").getFullList({ filter: `email = "${email}"` })).toEqual([]);
  });

  it("lets a Platform Operator without membership invite into any organization, but not list its invitations", async () => {
    const operator = await world.client("operator");
    const created = await operator.collection("invites").create({ organization: world.b.organization.id, email: `${unique("via-op")}@example.test`, role: "admin" });
    expect(created.token).toMatch(/^[A-Za-z0-9]{43}$/);
    expect(await exists("invites", created.id)).toBe(true);
    expect(await operator.collection("invites").getFullList({ filter: `organization = "${world.b.organization.id}"` })).toEqual([]);
    await expect(operator.collection("invites").getOne(created.id)).rejects.toMatchObject({ status: 404 });
  });

  it("refuses invitations from roles below admin and from outsiders", async () => {
    for (const who of ["member", "viewer", "dashboard", "outsider", "foreign_owner"] as const) {
      const pb = await world.client(who);
      const attempt = pb.collection("invites").create({ organization: world.a.organization.id, email: `${unique(who)}@example.test`, role: "viewer" });
      await expect(attempt, who).rejects.toMatchObject({ status: 400 });
    }
  });
});

describe("tenancy.invite_expiry_days", () => {
  let custom: Platform;
  beforeAll(async () => {
    custom = await startPlatform({ env: { PLATFORM_TENANCY_INVITE_EXPIRY_DAYS: "2" } });
  });
  afterAll(async () => custom?.stop());

  it("sets the expiry of a new invitation to now + the configured days", async () => {
    const su = await custom.superuser();
    const organization = await createOrganization(su, "Gamma");
    const owner = await createMember(su, organization.id, "owner");
    const pb = client(custom.url);
    await pb.collection("users").authWithPassword(owner.email as string, PASSWORD);
    const created = await pb.collection("invites").create({ organization: organization.id, email: `${unique("z")}@example.test`, role: "viewer" });
    const at = new Date(String(created.expiry).replace(" ", "T")).getTime();
    expect(Math.abs(at - (Date.now() + 2 * DAY_MS))).toBeLessThan(120_000);
  });
});
