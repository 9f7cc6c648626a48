// A tenant's own filter on `organization` narrows its list, it never empties it. The pinned PocketBase's
// SQLite (3.53.3) answered such a list with nothing while an expression index on COALESCE(organization, '')
// served the rules (docs/performance.md "List pages"); every org-scoped collection
// is asked here the way a script or the console would ask it.
import { describe, expect, it } from "vitest";
import { useWorld } from "../harness/world";
import { migrateUp } from "../harness/platform";
import { sqlite } from "../harness/sqlite";

const { platform, world: w } = useWorld();

const sql = (statement: string) => sqlite(platform.dataDir, statement);

/** Every collection of the seeded world whose records carry `organization`. */
const ORG_SCOPED = [
  "thing_types",
  "location_types",
  "locations",
  "thing_type_operations",
  "bus_roles",
  "bus_users",
  "bus_accounts",
  "bus_account_exports",
  "overlay_ca",
  "overlay_networks",
  "overlay_hosts",
  "things",
  "invites",
  "activity",
] as const;

describe("a filter on the active organization", () => {
  it.each(ORG_SCOPED)("an owner's list of %s keeps its own rows", async (collection) => {
    const owner = await w.client("owner");
    const own = w.a[collection].id;
    const ids = async (filter: string) => (await owner.collection(collection).getFullList({ filter })).map((r) => r.id);
    const org = w.a.organization.id;
    expect(await ids(`organization = "${org}"`)).toContain(own);
    expect(await ids(`organization = "${org}" && id = "${own}"`)).toEqual([own]);
    expect(await ids(`organization = "${org}" && id != ""`)).toContain(own);
    expect(await ids(`organization = "${w.b.organization.id}"`)).toEqual([]);
    // A total with the page, the SDK's default.
    expect((await owner.collection(collection).getList(1, 30, { filter: `organization = "${org}"` })).totalItems).toBeGreaterThan(0);
  });

  it("a member's list of things and of memberships keeps its own rows", async () => {
    const member = await w.client("member");
    const org = w.a.organization.id;
    const things = await member.collection("things").getFullList({ filter: `organization = "${org}" && name ~ "Thermo"` });
    expect(things.map((r) => r.id)).toEqual([w.a.things.id]);
    const memberships = await member.collection("memberships").getFullList({ filter: `organization = "${org}"` });
    expect(memberships.map((r) => r.user)).toContain(w.users.member.id);
  });
});

describe("migration 1764000006 on a database written before it", () => {
  it("puts the plain organization index in place of the expression index of the same name", async () => {
    const expression = "CREATE INDEX `idx_things_org_scope` ON `things` (COALESCE(organization, ''))";
    sql(`DROP INDEX idx_things_org_scope; ${expression};
         UPDATE _collections SET indexes = json_replace(indexes,
           (SELECT fullkey FROM json_each(indexes) WHERE value LIKE '%idx_things_org_scope%'), '${expression.replace(/'/g, "''")}')
         WHERE name = 'things';
         DELETE FROM _migrations WHERE file = '1764000006_organization_index.js'`);
    const migrated = await migrateUp(platform);
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(sql("SELECT sql FROM sqlite_master WHERE name = 'idx_things_org_scope'")).toBe(
      "CREATE INDEX `idx_things_org_scope` ON `things` (`organization`)",
    );
    expect(sql("SELECT indexes FROM _collections WHERE name = 'things'")).not.toContain("COALESCE");
    const owner = await w.client("owner");
    const filtered = await owner.collection("things").getFullList({ filter: `organization = "${w.a.organization.id}"` });
    expect(filtered.map((r) => r.id)).toContain(w.a.things.id);
  });
});
