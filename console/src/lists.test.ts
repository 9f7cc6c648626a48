import { describe, expect, it } from "vitest";
import { loadConfig } from "../../pb_hooks_src/config/load";
import { parseYaml } from "../../pb_hooks_src/config/yaml";
import { inventoryCollections } from "../../pb_hooks_src/inventory/collections";
import { platformCollections } from "../../pb_hooks_src/schema/collections";
import { collectionNames } from "../../pb_hooks_src/schema/names";
import { ACTIVITY_SORT, AUDIT_SORT, BUS_LISTS, BUS_SORT, CHOICE_COLLECTIONS, CHOICE_SORT, HOST_SORT, INVENTORY_COLLECTIONS, INVENTORY_SORTS, INVITE_SORT, MEMBER_SORT, ORGANIZATION_SORT, THING_SORTS, pageCount, sortParam } from "./lists";

const specs = platformCollections(collectionNames(loadConfig({ env: {}, args: ["pocketbase"], cwd: "/nowhere", readFile: () => undefined, parseYaml })));
const hasField = (key: string, field: string) => specs.find((c) => c.key === key)?.fields.some((f) => f.name === field) === true;

describe("list parameters", () => {
  it("sorts Things only on fields the things collection has", () => {
    const things = inventoryCollections().find((c) => c.key === "things");
    const fields = new Set(things?.fields.map((f) => f.name));
    for (const { field } of THING_SORTS) expect(fields.has(field), field).toBe(true);
  });

  it("sorts the Thing forms' choices on a field each of their collections has", () => {
    for (const key of CHOICE_COLLECTIONS) expect(hasField(key, CHOICE_SORT), key).toBe(true);
  });

  it("sorts Locations and the type lists only on fields their collections have", () => {
    for (const key of INVENTORY_COLLECTIONS) for (const { field } of INVENTORY_SORTS[key]) expect(hasField(key, field), `${key}.${field}`).toBe(true);
  });

  it("sorts memberships and invitations only on fields those collections have", () => {
    expect(hasField("memberships", MEMBER_SORT)).toBe(true);
    expect(hasField("invites", INVITE_SORT)).toBe(true);
  });

  it("sorts organizations and the audit log only on fields those collections have", () => {
    expect(hasField("organizations", ORGANIZATION_SORT)).toBe(true);
    expect(hasField("audit_logs", AUDIT_SORT)).toBe(true);
  });

  it("sorts the activity feed only on a field the activity collection has", () => {
    expect(hasField("activity", ACTIVITY_SORT)).toBe(true);
  });

  it("sorts the Bus screen's lists only on a field each of their collections has", () => {
    for (const key of BUS_LISTS) expect(hasField(key, BUS_SORT), key).toBe(true);
  });

  it("sorts the large collections' pages only on fields indexed in the organization's order", () => {
    // Without the index SQLite sorts every row of the organization for each page (docs/performance.md).
    const orderIndexed = (key: string, field: string) => specs.find((c) => c.key === key)?.indexes.some((sql) => sql.includes(`(organization, ${field})`)) === true;
    const sorted: [string, string[]][] = [
      ["things", THING_SORTS.map((s) => s.field)],
      ["locations", INVENTORY_SORTS.locations.map((s) => s.field)],
      ["bus_users", [BUS_SORT]],
      ["overlay_hosts", [HOST_SORT]],
    ];
    for (const [key, fields] of sorted) for (const field of fields) expect(orderIndexed(key, field), `${key}.${field}`).toBe(true);
  });

  it("falls back to the first sort option for an unknown field (never sends it)", () => {
    expect(sortParam(THING_SORTS, "name", true)).toBe("-name");
    expect(sortParam(THING_SORTS, "bogus", false)).toBe("code");
  });

  it("counts pages", () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(25)).toBe(1);
    expect(pageCount(26)).toBe(2);
  });
});
