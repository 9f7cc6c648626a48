// The lookups a write makes inside its transaction seek an index instead of reading a tenant or a whole
// table (docs/performance.md "Writes in a large tenant"): whether a Thing's code is taken, the lighthouses
// a host's config lists, and the records that point at one being deleted. Each statement is the one the
// hooks or PocketBase run, planned by the sqlite3 shell on the platform's own database after its
// migrations. Before the change, the code check read every Thing of the organization, the lighthouse
// lookup every host of the network, and deleting a host, a bus user, a location or a type every Thing.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeTakenSql } from "../../pb_hooks_src/inventory/codes";
import { lighthousesSql } from "../../pb_hooks_src/overlay/lighthouses";
import { startPlatform, type Platform } from "../harness/platform";

let platform: Platform;
beforeAll(async () => {
  platform = await startPlatform();
}, 60_000);
afterAll(async () => platform?.stop());

function sqlite(statement: string, flags: string[] = []): string {
  return execFileSync("sqlite3", [...flags, join(platform.dataDir, "data.db"), ".timeout 5000", statement], { encoding: "utf8" });
}

/** SQLite's plan for a statement written with dbx's placeholders, one step per line. */
function planOf(dbxSql: string): string {
  const sql = dbxSql
    .replace(/\{\{(\w+)\}\}/g, '"$1"')
    .replace(/\[\[(\w+)\]\]/g, '"$1"')
    .replace(/\{:\w+\}/g, "?");
  return sqlite(`EXPLAIN QUERY PLAN ${sql}`);
}

/** Every relation field of every collection, as "collection.field". */
function relationFields(): string[] {
  const rows = JSON.parse(sqlite("SELECT name, fields FROM _collections", ["-json"])) as { name: string; fields: string }[];
  return rows.flatMap((row) => (JSON.parse(row.fields) as { name: string; type: string }[]).filter((f) => f.type === "relation").map((f) => `${row.name}.${f.name}`));
}

describe("the lookups of a write's transaction", () => {
  it("checks a Thing's code with one seek of the unique index (organization, code)", () => {
    const plan = planOf(codeTakenSql("things"));
    expect(plan).toContain("SEARCH things USING INDEX idx_things_org_code (organization=? AND code=?)");
    expect(plan).not.toMatch(/SCAN|TEMP B-TREE/);
  });

  it("finds a network's lighthouses in the index that holds only lighthouses, in address order", () => {
    const plan = planOf(lighthousesSql("overlay_hosts"));
    expect(plan).toContain("SEARCH overlay_hosts USING INDEX idx_overlay_hosts_lighthouses (network=?)");
    expect(plan).not.toMatch(/SCAN|TEMP B-TREE/);
  });

  it("finds the records that point at a deleted record by an index, for every relation field", () => {
    const fields = relationFields();
    expect(fields).toEqual(expect.arrayContaining(["things.overlay_host", "things.bus_user", "things.location", "locations.parent"]));
    const scans = fields.filter((field) => {
      const [table, column] = field.split(".");
      // What PocketBase asks, in pages, when a record of the target collection is deleted.
      return /SCAN/.test(planOf(`SELECT [[id]] FROM {{${table}}} WHERE [[${column}]] = {:id} LIMIT 8000`));
    });
    expect(scans).toEqual([]);
  });
});
