// A tenant's unfiltered page of things, locations, bus_users or overlay_hosts takes its total from a count
// kept per organization by SQLite triggers (schema/row-counts.ts, tenancy/list-totals.ts) instead of
// PocketBase's COUNT over the organization's rows. The total must be exactly the one PocketBase would give
// (asked for here with a filter that admits every row, which PocketBase counts itself), for every caller,
// on every page, after every kind of write.
import type PocketBase from "pocketbase";
import { describe, expect, it } from "vitest";
import { ACTORS, PASSWORD, createOrganization, statusOf, useWorld } from "../harness/world";
import { migrateUp } from "../harness/platform";
import { sqlite } from "../harness/sqlite";

const { platform, world: w } = useWorld();

const COUNTED = ["things", "locations", "bus_users", "overlay_hosts"] as const;
const EVERY_ROW = `id != ""`;

const sql = (statement: string) => sqlite(platform.dataDir, statement);

/** `rows` plain locations of `organization`, written past the API (a restore or a script would). */
function insertLocations(organization: string, rows: number, prefix: string): void {
  sql(`WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i < ${rows - 1})
       INSERT INTO locations (id, organization, created, updated, name)
       SELECT printf('${prefix}%012d', i), '${organization}', strftime('%Y-%m-%d %H:%M:%fZ', 'now'),
              strftime('%Y-%m-%d %H:%M:%fZ', 'now'), 'Bulk ' || i FROM seq`);
}

/** The page as the caller gets it, and the same page counted by PocketBase. */
async function bothTotals(pb: PocketBase, collection: string, page: number, perPage: number) {
  const shape = (list: { totalItems: number; totalPages: number; items: { id: string }[] }) => ({
    totalItems: list.totalItems,
    totalPages: list.totalPages,
    ids: list.items.map((r) => r.id),
  });
  return {
    kept: shape(await pb.collection(collection).getList(page, perPage)),
    counted: shape(await pb.collection(collection).getList(page, perPage, { filter: EVERY_ROW })),
  };
}

async function expectSameTotals(pb: PocketBase, collection: string, label: string): Promise<number> {
  let total = -1;
  for (const [page, perPage] of [[1, 30], [1, 2], [2, 1], [3, 20], [50, 2]]) {
    const { kept, counted } = await bothTotals(pb, collection, page, perPage);
    expect(kept, `${label} ${collection} page ${page} of ${perPage}`).toEqual(counted);
    total = kept.totalItems;
  }
  return total;
}

describe("the total of a list page from the kept count", () => {
  it("equals PocketBase's own count for every caller and page", async () => {
    insertLocations(w.a.organization.id, 41, "lta");
    insertLocations(w.b.organization.id, 7, "ltb");
    for (const actor of ACTORS) {
      const pb = await w.client(actor);
      for (const collection of COUNTED) await expectSameTotals(pb, collection, actor);
    }
    const owner = await w.client("owner");
    expect((await owner.collection("locations").getList(1, 30)).totalItems).toBe(42);
    expect((await (await w.client("foreign_owner")).collection("locations").getList(1, 30)).totalItems).toBe(8);
    expect((await (await w.client("outsider")).collection("locations").getList(1, 30)).totalItems).toBe(0);
  });

  it("follows creates, deletes, moves written past the API and an organization's deletion", async () => {
    const owner = await w.client("owner");
    const foreign = await w.client("foreign_owner");
    const before = await expectSameTotals(owner, "locations", "owner");
    const created = await owner.collection("locations").create({ organization: w.a.organization.id, name: "Annex" });
    expect(await expectSameTotals(owner, "locations", "owner")).toBe(before + 1);
    const doomed = await owner.collection("locations").create({ organization: w.a.organization.id, name: "Shed" });
    await owner.collection("locations").delete(doomed.id);
    expect(await expectSameTotals(owner, "locations", "owner")).toBe(before + 1);

    // No writer may move a record through the API, a SuperUser included (tenancy/invariants.ts), so the
    // counts stay; a move written past the API (a script, a restore) moves the count with it.
    const foreignBefore = await expectSameTotals(foreign, "locations", "foreign owner");
    expect(await statusOf(w.su.collection("locations").update(created.id, { organization: w.b.organization.id }))).toBe(400);
    expect(await expectSameTotals(owner, "locations", "owner")).toBe(before + 1);
    expect(await expectSameTotals(foreign, "locations", "foreign owner")).toBe(foreignBefore);
    sql(`UPDATE locations SET organization = '${w.b.organization.id}' WHERE id = '${created.id}'`);
    expect(await expectSameTotals(owner, "locations", "owner")).toBe(before);
    expect(await expectSameTotals(foreign, "locations", "foreign owner")).toBe(foreignBefore + 1);

    // PocketBase's cascade deletes the organization's rows one by one; the triggers see each.
    const gone = await createOrganization(w.su, "Gone");
    insertLocations(gone.id, 5, "ltg");
    const kept = () => sql(`SELECT total FROM _org_row_counts WHERE organization = '${gone.id}' AND collection = (SELECT id FROM _collections WHERE name = 'locations')`);
    expect(kept()).toBe("5");
    await w.su.collection("organizations").delete(gone.id);
    expect(kept()).toBe("0");
  });

  it("is read from the kept count, and only when the client asked for a total without a filter", async () => {
    const owner = await w.client("owner");
    const real = (await owner.collection("locations").getList(1, 30, { filter: EVERY_ROW })).totalItems;
    const key = `organization = '${w.a.organization.id}' AND collection = (SELECT id FROM _collections WHERE name = 'locations')`;
    sql(`UPDATE _org_row_counts SET total = total + 1000 WHERE ${key}`);
    try {
      expect((await owner.collection("locations").getList(1, 30)).totalItems).toBe(real + 1000);
      expect((await owner.collection("locations").getList(1, 30, { filter: EVERY_ROW })).totalItems).toBe(real);
      expect((await owner.collection("locations").getList(1, 30, { skipTotal: true })).totalItems).toBe(-1);
      // A SuperUser and a Platform Operator are counted by PocketBase.
      expect((await w.su.collection("locations").getList(1, 30, { filter: `organization = "${w.a.organization.id}"` })).totalItems).toBe(real);
      expect((await (await w.client("operator")).collection("locations").getList(1, 1)).totalItems).toBe(0);
    } finally {
      sql(`UPDATE _org_row_counts SET total = total - 1000 WHERE ${key}`);
    }
  });

  it("leaves a page sorted through a relation to PocketBase: such a sort leaves out the rows whose related record the caller may not list", async () => {
    // Under bus_users' list rule a member lists none (spec 5.13): sorted by its bus user's name, only a
    // Thing with no bus user is on the member's page.
    const thing = (name: string, extra: Record<string, unknown> = {}) =>
      w.su.collection("things").create({ organization: w.a.organization.id, name, active: true, password: PASSWORD, passwordConfirm: PASSWORD, ...extra });
    const identity = await w.su.collection("bus_users").create({ organization: w.a.organization.id, name: "sorted identity" });
    await thing("sorted linked", { bus_user: identity.id });
    await thing("sorted bare");
    const member = await w.client("member");
    const sorted = await member.collection("things").getList(1, 200, { sort: "bus_user.name" });
    expect(sorted.items.map((row) => row.name)).toContain("sorted bare");
    expect(sorted.items.map((row) => row.name)).not.toContain("sorted linked");
    for (const actor of ["owner", "member", "viewer"] as const) {
      const caller = await w.client(actor);
      for (const sort of ["bus_user.name", "-overlay_host.name,name", "name"]) {
        const page = await caller.collection("things").getList(1, 200, { sort });
        expect(page.totalItems, `${actor} sorted by ${sort}`).toBe(page.items.length);
      }
    }
  });

  it("is counted afresh by migration 1764000010, whatever the table held", async () => {
    sql(`UPDATE _org_row_counts SET total = 999; DELETE FROM _migrations WHERE file = '1764000010_org_row_counts.js'`);
    const migrated = await migrateUp(platform);
    expect(migrated.code, migrated.stderr).toBe(0);
    for (const actor of ["owner", "member", "foreign_owner"] as const) {
      for (const collection of COUNTED) await expectSameTotals(await w.client(actor), collection, actor);
    }
  });
});
