// users.current_role, the caller's active-organization role that the API rules read
// (docs/decisions/020-role-of-active-organization.md): every write that can change it takes effect on the
// very next read, nobody can set it, and concurrent writers leave it equal to what the committed rows say.
import { describe, expect, it } from "vitest";
import { PASSWORD, client, createMember, statusOf, useWorld } from "../harness/world";
import { migrateUp } from "../harness/platform";
import { sqlite } from "../harness/sqlite";

const { platform, world: w } = useWorld();

async function signIn(email: string) {
  const pb = client(platform.url);
  await pb.collection("users").authWithPassword(email, PASSWORD);
  return pb;
}

const sql = (statement: string) => sqlite(platform.dataDir, statement);

/** The stored value, read from the database (the field is hidden from API responses). */
const storedRole = (userId: string) => sql(`SELECT current_role FROM users WHERE id = '${userId}'`);
const storedScope = (userId: string) => sql(`SELECT COALESCE(current_scope, '') FROM users WHERE id = '${userId}'`);

/** What the committed rows say: the role of the membership in the user's active organization. */
const roleFromRows = (userId: string) =>
  sql(`SELECT COALESCE((SELECT m.role FROM memberships m JOIN users u ON u.id = m.user
         WHERE u.id = '${userId}' AND m.organization = u.current_organization AND u.current_organization != ''), '')`);

const busUserIds = async (pb: Awaited<ReturnType<typeof signIn>>) => (await pb.collection("bus_users").getFullList()).map((r) => r.id);

describe("the active-organization role takes effect on the next read", () => {
  it("a role change by a manager: bus users appear and disappear at once (rule 13)", async () => {
    const user = await createMember(w.su, w.a.organization.id, "viewer");
    const pb = await signIn(user.email as string);
    expect(await busUserIds(pb)).toEqual([]);
    const membership = await w.su.collection("memberships").getFirstListItem(`user = "${user.id}"`);
    const owner = await w.client("owner");
    await owner.collection("memberships").update(membership.id, { role: "admin" });
    expect(await busUserIds(pb)).toContain(w.a.bus_users.id);
    await owner.collection("memberships").update(membership.id, { role: "member" });
    expect(await busUserIds(pb)).toEqual([]);
    expect((await pb.collection("things").getFullList()).map((r) => r.id)).toEqual([w.a.things.id]);
  });

  it("switching the active organization switches the role with it", async () => {
    const user = await createMember(w.su, w.a.organization.id, "owner");
    await w.su.collection("memberships").create({ user: user.id, organization: w.b.organization.id, role: "viewer" });
    const pb = await signIn(user.email as string);
    expect(await busUserIds(pb)).toContain(w.a.bus_users.id);
    await pb.collection("users").update(user.id, { current_organization: w.b.organization.id });
    expect(await busUserIds(pb)).toEqual([]);
    expect((await pb.collection("things").getFullList()).map((r) => r.id)).toEqual([w.b.things.id]);
    expect(await statusOf(pb.collection("things").getOne(w.a.things.id))).toBe(404);
    await pb.collection("users").update(user.id, { current_organization: w.a.organization.id });
    expect(await busUserIds(pb)).toContain(w.a.bus_users.id);
  });

  it("a membership deleted by a SuperUser ends reads and clears the role", async () => {
    const user = await createMember(w.su, w.a.organization.id, "admin");
    const pb = await signIn(user.email as string);
    expect(await busUserIds(pb)).toContain(w.a.bus_users.id);
    const membership = await w.su.collection("memberships").getFirstListItem(`user = "${user.id}"`);
    await w.su.collection("memberships").delete(membership.id);
    expect(await busUserIds(pb)).toEqual([]);
    expect(await pb.collection("things").getFullList()).toEqual([]);
    expect(storedRole(user.id)).toBe("");
    expect(storedScope(user.id)).toBe("");
  });

  it("current_scope holds the active organization exactly while a membership there exists, and follows a switch", async () => {
    const user = await createMember(w.su, w.a.organization.id, "member");
    const pb = await signIn(user.email as string);
    expect(storedScope(user.id)).toBe(JSON.stringify(w.a.organization.id));
    await w.su.collection("memberships").create({ user: user.id, organization: w.b.organization.id, role: "viewer" });
    await pb.collection("users").update(user.id, { current_organization: w.b.organization.id });
    expect(storedScope(user.id)).toBe(JSON.stringify(w.b.organization.id));
    expect(await pb.collection("things").getFullList({ filter: `organization = "${w.a.organization.id}"` })).toEqual([]);
    const membership = await w.su.collection("memberships").getFirstListItem(`user = "${user.id}" && organization = "${w.b.organization.id}"`);
    await w.su.collection("memberships").delete(membership.id);
    expect(storedScope(user.id)).toBe("");
  });
});

describe("nobody sets current_role", () => {
  it("a viewer writing its own current_role gains nothing", async () => {
    const user = await createMember(w.su, w.a.organization.id, "viewer");
    const pb = await signIn(user.email as string);
    await statusOf(pb.collection("users").update(user.id, { current_role: "owner" }));
    expect(storedRole(user.id)).toBe("viewer");
    expect(await busUserIds(pb)).toEqual([]);
  });

  it("a SuperUser's write is recomputed from the membership too", async () => {
    const user = await createMember(w.su, w.a.organization.id, "member");
    await w.su.collection("users").update(user.id, { current_role: "owner" });
    expect(storedRole(user.id)).toBe("member");
  });

  it("a new user starts without a role, whatever the sign-up body says", async () => {
    const guest = client(platform.url);
    const email = `role-${Date.now()}@example.test`;
    const created = await guest.collection("users").create({ email, password: PASSWORD, passwordConfirm: PASSWORD, current_role: "owner" });
    expect(storedRole(created.id)).toBe("");
  });
});

describe("concurrent membership and users writes", () => {
  it("leave current_role equal to the committed membership rows", async () => {
    const owner = await w.client("owner");
    const users = await Promise.all([0, 1, 2].map(() => createMember(w.su, w.a.organization.id, "viewer")));
    for (const user of users) await w.su.collection("memberships").create({ user: user.id, organization: w.b.organization.id, role: "admin" });
    const roles = ["owner", "admin", "member", "viewer", "dashboard"];
    const inA = await Promise.all(users.map((u) => w.su.collection("memberships").getFirstListItem(`user = "${u.id}" && organization = "${w.a.organization.id}"`)));
    // All in flight at once; some fail by design (a write to a membership deleted meanwhile, a switch to
    // an organization left meanwhile): only the committed outcome matters.
    const writes: Promise<unknown>[] = [];
    for (let round = 0; round < 8; round++) {
      users.forEach((user, i) => {
        writes.push(owner.collection("memberships").update(inA[i].id, { role: roles[(round + i) % roles.length] }));
        writes.push(w.su.collection("users").update(user.id, { current_organization: round % 2 === 0 ? w.b.organization.id : w.a.organization.id }));
        if (round === 5 && i === 0) writes.push(w.su.collection("memberships").delete(inA[i].id));
      });
    }
    await Promise.allSettled(writes);
    for (const user of users) expect(storedRole(user.id)).toBe(roleFromRows(user.id));
  });
});

describe("migration 1764000004 on a database written before it", () => {
  it("backfills every user's role from the memberships (spec 9.2)", async () => {
    const user = await createMember(w.su, w.a.organization.id, "admin");
    const pb = await signIn(user.email as string);
    sql(`UPDATE users SET current_role = ''; DELETE FROM _migrations WHERE file = '1764000004_current_role.js'`);
    expect(await busUserIds(pb)).toEqual([]);
    const migrated = await migrateUp(platform);
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(storedRole(user.id)).toBe("admin");
    expect(storedRole(w.users.viewer.id)).toBe("viewer");
    expect(await busUserIds(pb)).toContain(w.a.bus_users.id);
  });
});
