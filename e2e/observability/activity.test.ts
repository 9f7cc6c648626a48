// The activity feed against the real binary: an entry per create, update and delete of exactly the five
// inventory collections, for every writer, with a plain-text actor and a label snapshot but no values;
// visible to every role of the organization and nobody else; written by nobody through the API.
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { describe, expect, it } from "vitest";
import { ACTORS, useWorld, createOrganization, PASSWORD, ROLES, seedOrganization, unique, statusOf } from "../harness/world";

const { world } = useWorld();


/** Activity about one record, oldest first, as `pb` sees it. */
async function activityOf(pb: PocketBase, resourceId: string): Promise<RecordModel[]> {
  return pb.collection("activity").getFullList({ filter: pb.filter("resource_id = {:id}", { id: resourceId }), sort: "timestamp,id" });
}

const FEED_FIELDS = ["action", "actor", "collectionId", "collectionName", "id", "label", "organization", "record", "resource_id", "timestamp"];

describe("activity feed", () => {
  it("records create, update and delete of each inventory collection with the actor's name and a label", async () => {
    const owner = await world.client("owner");
    const email = "Olive Owner";
    await world.su.collection("users").update(world.users.owner.id, { name: email });
    const org = world.a.organization.id;
    const thingType = await owner.collection("thing_types").create({ organization: org, name: "Gauge", prefix: "GAUGE" });
    const created: Array<[string, RecordModel]> = [
      ["thing_types", thingType],
      ["location_types", await owner.collection("location_types").create({ organization: org, name: "Floor" })],
      ["locations", await owner.collection("locations").create({ organization: org, name: "Lab" })],
      ["thing_type_operations", await owner.collection("thing_type_operations").create({ organization: org, name: "calibrate", thing_type: thingType.id })],
      ["things", await owner.collection("things").create({ organization: org, name: "Gauge 1", type: thingType.id, password: PASSWORD, passwordConfirm: PASSWORD })],
    ];

    for (const [collection, record] of created) {
      await owner.collection(collection).update(record.id, { name: `${record.name} v2` });
    }
    for (const [collection, record] of [...created].reverse()) await owner.collection(collection).delete(record.id);

    for (const [collection, record] of created) {
      const entries = await activityOf(owner, record.id);
      expect(entries.map((entry) => entry.action), collection).toEqual(["create", "update", "delete"]);
      for (const entry of entries) {
        expect(entry, collection).toMatchObject({ organization: org, actor: email, record: collection, resource_id: record.id });
        expect(Object.keys(entry).sort(), collection).toEqual(FEED_FIELDS);
      }
      // Each label is the name at that moment: later renames do not rewrite earlier entries.
      expect(entries.map((entry) => entry.label), collection).toEqual([record.name, `${record.name} v2`, `${record.name} v2`]);
    }
  });

  it("shows a user's address only if the user made it visible, as the Members screen does", async () => {
    const admin = await world.client("admin");
    const { id, email } = world.users.admin;
    const named = async () => (await activityOf(admin, (await admin.collection("locations").create({ organization: world.a.organization.id, name: unique("who") })).id))[0].actor;
    await world.su.collection("users").update(id, { name: "", emailVisibility: false });
    expect(await named()).toBe(`users:${id}`);
    await world.su.collection("users").update(id, { emailVisibility: true });
    expect(await named()).toBe(email);
  });

  it("attributes SuperUser writes to `superuser`, never the staff address", async () => {
    const location = await world.su.collection("locations").create({ organization: world.a.organization.id, name: unique("Staff-made") });
    const owner = await world.client("owner");
    const [entry] = await activityOf(owner, location.id);
    expect(entry).toMatchObject({ actor: "superuser", action: "create" });
  });

  it("covers only the inventory collections: a bus_roles write makes no entry", async () => {
    const owner = await world.client("owner");
    const role = await owner.collection("bus_roles").create({ organization: world.a.organization.id, name: unique("role") });
    await owner.collection("bus_roles").update(role.id, { name: unique("role") });
    expect(await activityOf(world.su, role.id)).toHaveLength(0);
    await world.su.collection("organizations").update(world.a.organization.id, { name: "Alpha Renamed" });
    expect(await activityOf(world.su, world.a.organization.id)).toHaveLength(0);

    const inventory = ["things", "locations", "thing_types", "location_types", "thing_type_operations"];
    const records = new Set((await world.su.collection("activity").getFullList()).map((entry) => entry.record as string));
    expect([...records].every((record) => inventory.includes(record))).toBe(true);
  });

  it("shows an entry to every role of its organization and to nobody else", async () => {
    const location = await world.su.collection("locations").create({ organization: world.a.organization.id, name: unique("Shared") });
    for (const role of ROLES) {
      const pb = await world.client(role);
      expect(await activityOf(pb, location.id), role).toHaveLength(1);
    }
    const [entry] = await activityOf(world.su, location.id);
    for (const actor of ["foreign_owner", "operator", "outsider", "anonymous"] as const) {
      const pb = await world.client(actor);
      expect(await activityOf(pb, location.id), actor).toHaveLength(0);
      expect(await statusOf(pb.collection("activity").getOne(entry.id)), actor).toBe(404);
    }
  });

  it("cannot be created, changed or deleted through the API by anyone but a SuperUser", async () => {
    const [entry] = (await world.su.collection("activity").getList(1, 1, { sort: "-timestamp" })).items;
    const forged = { organization: world.a.organization.id, actor: "forged", action: "delete", record: "things", resource_id: world.a.things.id, label: "x" };
    for (const actor of ACTORS) {
      const pb = await world.client(actor);
      expect(await statusOf(pb.collection("activity").create(forged)), `${actor} create`).toBeGreaterThanOrEqual(400);
      expect(await statusOf(pb.collection("activity").update(entry.id, { actor: "forged" })), `${actor} update`).toBeGreaterThanOrEqual(400);
      expect(await statusOf(pb.collection("activity").delete(entry.id)), `${actor} delete`).toBeGreaterThanOrEqual(400);
    }
    expect(await world.su.collection("activity").getOne(entry.id)).toMatchObject({ actor: entry.actor, label: entry.label });
    expect(await world.su.collection("activity").getFullList({ filter: "actor = 'forged'" })).toHaveLength(0);
  });

  it("leaves no orphan entries when an organization is deleted with its inventory", async () => {
    const su = world.su;
    const org = await createOrganization(su, "Doomed");
    const location = await su.collection("locations").create({ organization: org.id, name: "Soon gone" });
    expect(await activityOf(su, location.id)).toHaveLength(1);
    await su.collection("organizations").delete(org.id);
    expect(await su.collection("activity").getFullList({ filter: su.filter("organization = {:org}", { org: org.id }) })).toHaveLength(0);
    // A Thing linked to a bus user and an overlay host: the cascade clears those links (updates of the
    // Thing) after the organization's feed has gone; they leave no entry either.
    const linked = await createOrganization(su, "Linked");
    const seeded = await seedOrganization(su, linked);
    expect(seeded.things.bus_user).not.toBe("");
    await su.collection("organizations").delete(linked.id);
    expect(await su.collection("activity").getFullList({ filter: su.filter("organization = {:org}", { org: linked.id }) })).toHaveLength(0);
    // The audit log still has the whole story.
    const audit = await su.collection("audit_logs").getFullList({ filter: su.filter("record_id = {:id}", { id: location.id }) });
    expect(audit.map((entry) => entry.action).sort()).toEqual(["create", "delete"]);
    expect(audit.find((entry) => entry.action === "delete")?.actor).toBe("system");
  });
});
