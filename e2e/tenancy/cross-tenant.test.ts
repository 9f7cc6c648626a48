// Attacks across organizations (spec rules 4, 5, 9, 10, 11): relations into another organization for
// every writer, reading another organization without a membership, the blank-equals-blank match,
// mixed roles across organizations, re-pointing a bus identity, and privilege flags.
import { ClientResponseError } from "pocketbase";
import { describe, expect, it } from "vitest";
import { PASSWORD, useWorld, client, createMember, createUser, unique, statusOf } from "../harness/world";

const { platform, world: w } = useWorld();


async function signIn(email: string) {
  const pb = client(platform.url);
  await pb.collection("users").authWithPassword(email, PASSWORD);
  return pb;
}

describe("a relation into another organization is refused for every writer", () => {
  it.each(["owner", "admin"] as const)("%s: thing.type of another organization", async (actor) => {
    const pb = await w.client(actor);
    expect(await statusOf(pb.collection("things").update(w.a.things.id, { type: w.b.thing_types.id }))).toBe(400);
    expect(await statusOf(pb.collection("locations").create({ organization: w.a.organization.id, name: "x", type: w.b.location_types.id }))).toBe(400);
    const thing = await w.su.collection("things").getOne(w.a.things.id);
    expect(thing.type).toBe(w.a.thing_types.id);
  });

  it("owner: a membership linked to another organization's bus user", async () => {
    const owner = await w.client("owner");
    const membership = await w.su.collection("memberships").getFirstListItem(`user = "${w.users.member.id}"`);
    expect(await statusOf(owner.collection("memberships").update(membership.id, { bus_user: w.b.bus_users.id }))).toBe(400);
    expect(await statusOf(owner.collection("memberships").update(membership.id, { bus_user: w.a.bus_users.id }))).toBe(200);
    await w.su.collection("memberships").update(membership.id, { bus_user: "" });
  });

  it("SuperUser (the admin UI's API) is refused too", async () => {
    expect(await statusOf(w.su.collection("things").update(w.a.things.id, { bus_user: w.b.bus_users.id }))).toBe(400);
    expect(await statusOf(w.su.collection("things").update(w.a.things.id, { overlay_host: w.b.overlay_hosts.id }))).toBe(400);
    expect(await statusOf(w.su.collection("overlay_hosts").create({
      organization: w.a.organization.id, name: "h", network: w.b.overlay_networks.id, overlay_ip: "10.42.9.9",
    }))).toBe(400);
    expect(await statusOf(w.su.collection("thing_type_operations").create({
      organization: w.a.organization.id, name: "op", thing_type: w.b.thing_types.id,
    }))).toBe(400);
    // The same relation inside its own organization is fine.
    expect(await statusOf(w.su.collection("things").update(w.a.things.id, { bus_user: w.a.bus_users.id }))).toBe(200);
  });
});

describe("reading another organization", () => {
  it("cannot point current_organization at an organization without a membership", async () => {
    const outsider = await w.client("outsider");
    expect(await statusOf(outsider.collection("users").update(w.users.outsider.id, { current_organization: w.a.organization.id }))).toBe(404);
    // Not even a SuperUser can make the dangling link: the invariant hook refuses it.
    expect(await statusOf(w.su.collection("users").update(w.users.outsider.id, { current_organization: w.a.organization.id }))).toBe(400);
    expect(await outsider.collection("things").getFullList()).toEqual([]);
  });

  it("a blank current_organization never matches (blank equals blank)", async () => {
    const user = await createUser(w.su, `${unique("blank")}@example.test`);
    const pb = await signIn(user.email as string);
    for (const collection of ["things", "locations", "thing_types", "memberships", "bus_accounts", "overlay_ca", "activity", "invites"]) {
      expect(await pb.collection(collection).getFullList(), collection).toEqual([]);
    }
  });

  it("mixed roles: a viewer of A who owns C has no owner authority in A", async () => {
    const c = await w.su.collection("organizations").create({ name: "Gamma", code: unique("gamma"), active: true });
    const user = await createMember(w.su, w.a.organization.id, "viewer");
    await w.su.collection("memberships").create({ user: user.id, organization: c.id, role: "owner" });
    const pb = await signIn(user.email as string);
    expect(await pb.collection("bus_users").getFullList()).toEqual([]);
    expect(await statusOf(pb.collection("bus_users").getOne(w.a.bus_users.id))).toBe(404);
    expect(await statusOf(pb.collection("bus_roles").create({ organization: w.a.organization.id, name: "escalated" }))).toBe(400);
    expect(await statusOf(pb.collection("things").update(w.a.things.id, { name: "escalated" }))).toBe(404);
    // Switching to C does not carry C's authority into A's records either.
    await pb.collection("users").update(user.id, { current_organization: c.id });
    await pb.collection("users").authRefresh();
    expect(await pb.collection("things").getFullList()).toEqual([]);
    expect(await statusOf(pb.collection("things").update(w.a.things.id, { name: "escalated" }))).toBe(404);
  });

  it("deleting a membership ends reads at once and clears current_organization", async () => {
    const user = await createMember(w.su, w.a.organization.id, "viewer");
    const pb = await signIn(user.email as string);
    expect((await pb.collection("things").getFullList()).length).toBe(1);
    const membership = await w.su.collection("memberships").getFirstListItem(`user = "${user.id}"`);
    await (await w.client("owner")).collection("memberships").delete(membership.id);
    expect(await pb.collection("things").getFullList()).toEqual([]);
    expect((await w.su.collection("users").getOne(user.id)).current_organization).toBe("");
  });
});

describe("a member's own bus identity link (rule 10)", () => {
  it("may be kept or cleared but not re-pointed by the member", async () => {
    const membership = await w.su.collection("memberships").getFirstListItem(`user = "${w.users.member.id}"`);
    await w.su.collection("memberships").update(membership.id, { bus_user: w.a.bus_users.id });
    const spare = await w.su.collection("bus_users").create({ organization: w.a.organization.id, name: "spare" });
    const member = await w.client("member");
    expect(await statusOf(member.collection("memberships").update(membership.id, { bus_user: spare.id }))).toBe(404);
    expect(await statusOf(member.collection("memberships").update(membership.id, { bus_user: w.a.bus_users.id }))).toBe(200);
    expect(await statusOf(member.collection("memberships").update(membership.id, { role: "owner" }))).toBe(404);
    // The linked row is the one bus identity the member reads; the list stays empty (rule 13).
    expect((await member.collection("bus_users").getOne(w.a.bus_users.id)).id).toBe(w.a.bus_users.id);
    expect(await statusOf(member.collection("bus_users").getOne(spare.id))).toBe(404);
    expect(await member.collection("bus_users").getFullList()).toEqual([]);
    expect(await statusOf(member.collection("memberships").update(membership.id, { bus_user: "" }))).toBe(200);
    expect(await statusOf(member.collection("bus_users").getOne(w.a.bus_users.id))).toBe(404);
  });
});

describe("platform flags", () => {
  it("is_operator cannot be granted through the API", async () => {
    const owner = await w.client("owner");
    expect(await statusOf(owner.collection("users").update(w.users.owner.id, { is_operator: true }))).toBe(404);
    const guest = client(platform.url);
    const signUp = { email: `${unique("signup")}@example.test`, password: PASSWORD, passwordConfirm: PASSWORD };
    expect(await statusOf(guest.collection("users").create({ ...signUp, is_operator: true }))).toBe(400);
    const operator = await w.client("operator");
    expect(await statusOf(operator.collection("users").create({ ...signUp, is_operator: true }))).toBe(400);
    expect(await statusOf(operator.collection("users").update(w.users.owner.id, { is_operator: true }))).toBe(404);
    expect(await statusOf(operator.collection("users").create(signUp))).toBe(200);
    expect((await w.su.collection("users").getFirstListItem(`email = "${signUp.email}"`)).is_operator).toBe(false);
  });

  it("current_organization cannot be injected at sign-up", async () => {
    const guest = client(platform.url);
    const body = { email: `${unique("inject")}@example.test`, password: PASSWORD, passwordConfirm: PASSWORD };
    expect(await statusOf(guest.collection("users").create({ ...body, current_organization: w.a.organization.id }))).toBe(400);
    expect(await statusOf(guest.collection("users").create(body))).toBe(200);
  });

  it("organizations.code is frozen for Platform Operators; a SuperUser may fix it", async () => {
    const org = await w.su.collection("organizations").create({ name: "Typo", code: unique("tpyo"), active: true });
    const operator = await w.client("operator");
    expect(await statusOf(operator.collection("organizations").update(org.id, { code: unique("typo") }))).toBe(404);
    expect(await statusOf(operator.collection("organizations").update(org.id, { name: "Renamed", active: false }))).toBe(200);
    expect(await statusOf(w.su.collection("organizations").update(org.id, { code: unique("typo") }))).toBe(200);
    const owner = await w.client("owner");
    expect(await statusOf(owner.collection("organizations").update(w.a.organization.id, { name: "Owned" }))).toBe(404);
    expect(await statusOf(owner.collection("organizations").delete(w.a.organization.id))).toBe(404);
  });

  it("the operator and system organizations refuse suspension, even from a SuperUser", async () => {
    const system = await w.su.collection("organizations").create({ name: "Sys", code: unique("sys"), active: true, is_system_org: true });
    const operators = await w.su.collection("organizations").create({ name: "Ops", code: unique("ops"), active: true, is_operator_org: true });
    const operator = await w.client("operator");
    for (const org of [system, operators]) {
      expect(await statusOf(operator.collection("organizations").update(org.id, { active: false }))).toBe(404);
      expect(await statusOf(w.su.collection("organizations").update(org.id, { active: false }))).toBe(400);
      // Nor by clearing the flag in the same write or before: the flags are bootstrap's.
      for (const body of [{ is_system_org: false, is_operator_org: false, active: false }, { is_system_org: false, is_operator_org: false }]) {
        expect(await statusOf(w.su.collection("organizations").update(org.id, body))).toBe(400);
      }
      expect(await w.su.collection("organizations").getOne(org.id)).toMatchObject({ active: true, is_system_org: org.is_system_org, is_operator_org: org.is_operator_org });
    }
    const tenant = await w.su.collection("organizations").create({ name: "Tenant", code: unique("tenant"), active: true });
    expect(await statusOf(w.su.collection("organizations").update(tenant.id, { is_system_org: true }))).toBe(400);
    expect(await statusOf(operator.collection("organizations").create({ name: "Fake", code: unique("fake"), is_system_org: true }))).toBe(400);
  });
});

describe("moving a record to another organization", () => {
  it("is refused for owners and editors (organization is frozen on update)", async () => {
    for (const actor of ["owner", "member"] as const) {
      const pb = await w.client(actor);
      expect(await statusOf(pb.collection("things").update(w.a.things.id, { organization: w.b.organization.id }))).toBe(404);
      expect(await statusOf(pb.collection("locations").update(w.a.locations.id, { organization: w.b.organization.id }))).toBe(404);
    }
    const foreignOwner = await w.client("foreign_owner");
    expect(await statusOf(foreignOwner.collection("things").update(w.a.things.id, { organization: w.b.organization.id }))).toBe(404);
    expect((await w.su.collection("things").getOne(w.a.things.id)).organization).toBe(w.a.organization.id);
  });

  // Moving a location, a type or a bus user left the Things that point at them in the organization they
  // left: a relation into another organization, and a bus credential of Alpha's account readable in Beta.
  it("is refused for a SuperUser too, for every record of an organization, whatever points at it", async () => {
    const { organization: _, ...records } = w.a;
    for (const [collection, record] of Object.entries(records)) {
      const refusal = await w.su.collection(collection).update(record.id, { organization: w.b.organization.id }).then(
        () => "moved",
        (err: ClientResponseError) => `${err.status} ${String(err.response.message)}`,
      );
      expect(refusal, collection).toMatch(/^400 organization cannot change/i);
      expect((await w.su.collection(collection).getOne(record.id)).organization, collection).toBe(w.a.organization.id);
    }
  });
});
