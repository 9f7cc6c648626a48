// The console's lists, forms and filters held to the server's schema: every field the console asks for,
// sorts or filters on exists in the collection the server defines, with the index a page needs. Both sides
// are imported here, and only here: a deployable never imports another's folder (.dependency-cruiser.cjs).
import { describe, expect, it } from "vitest";
import { parseYaml } from "../common/config/yaml";
import { describeActivity } from "../console/src/activity";
import { AUDIT_ACTIONS, NO_FILTERS, auditFilter } from "../console/src/audit";
import { LOCATIONS, LOCATION_TYPES, OPERATIONS, OVERLAY_NETWORKS, PREFIX_PATTERN, THING_TYPES } from "../console/src/inventory";
import { ACTIVITY_SORT, AUDIT_SORT, BUS_LISTS, BUS_SORT, CHOICE_COLLECTIONS, CHOICE_SORT, HOST_SORT, INVENTORY_COLLECTIONS, INVENTORY_SORTS, INVITE_SORT, MEMBER_SORT, ORGANIZATION_SORT, THING_SORTS } from "../console/src/lists";
import { CA_FIELDS, HOST_FIELDS } from "../console/src/overlay";
import { loadConfig } from "../pb_hooks_src/config/load";
import { THING_TYPE_PREFIX_PATTERN, inventoryCollections } from "../pb_hooks_src/inventory/collections";
import { platformCollections } from "../pb_hooks_src/schema/collections";
import { collectionNames } from "../pb_hooks_src/schema/names";

const specs = platformCollections(collectionNames(loadConfig({ env: {}, args: ["pocketbase"], cwd: "/nowhere", readFile: () => undefined, parseYaml })));
const hasField = (key: string, field: string) => specs.find((c) => c.key === key)?.fields.some((f) => f.name === field) === true;
const fieldsOf = (key: string) => specs.find((c) => c.key === key)?.fields ?? [];

describe("audit log screen", () => {
  const audit = specs.find((c) => c.key === "audit_logs");

  it("offers exactly the actions the audit_logs schema has", () => {
    const action = audit?.fields.find((f) => f.name === "action");
    expect(action && "values" in action ? action.values : null).toEqual([...AUDIT_ACTIONS]);
  });

  it("filters only on fields with an (field, created) index, so a filtered page newest first seeks", () => {
    const indexed = (audit?.indexes ?? []).join("\n");
    for (const field of ["actor", "action", "collection"]) expect(indexed, field).toMatch(new RegExp(`\\(${field}, created\\)`));
    expect(auditFilter(NO_FILTERS)).toBeNull();
    expect(auditFilter({ actor: " users:abc ", action: "update", collection: "" })).toEqual({
      expr: "actor = {:actor} && action = {:action}",
      params: { actor: "users:abc", action: "update" },
    });
  });
});

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
});

describe("inventory lists and forms", () => {
  const KINDS = [LOCATIONS, THING_TYPES, LOCATION_TYPES, OPERATIONS, OVERLAY_NETWORKS];

  it("edit only fields their collections have, with the server's relation targets, lengths and required flags", () => {
    for (const kind of KINDS) {
      const fields = specs.find((c) => c.key === kind.collection)?.fields ?? [];
      for (const field of kind.fields) {
        const spec = fields.find((f) => f.name === field.name);
        expect(spec, `${kind.collection}.${field.name}`).toBeDefined();
        if (field.kind === "choice") expect(spec, `${kind.collection}.${field.name}`).toMatchObject({ type: "relation", target: field.choices });
        else expect(spec?.type, `${kind.collection}.${field.name}`).toBe("text");
        expect(spec && "required" in spec && spec.required === true, `${kind.collection}.${field.name} required`).toBe(field.required === true);
        if (field.maxlength !== undefined) expect(spec, `${kind.collection}.${field.name}`).toMatchObject({ max: field.maxlength });
      }
    }
  });

  it("checks a Thing Type's prefix in the browser as the server does", () => {
    expect(`^${PREFIX_PATTERN}$`).toBe(THING_TYPE_PREFIX_PATTERN);
  });
});

describe("overlay screen", () => {
  it("asks only for fields the collections have, never a private key, a config or a certificate", () => {
    for (const [key, list] of [["overlay_ca", CA_FIELDS], ["overlay_hosts", HOST_FIELDS]] as const) {
      const names = new Set(["id", ...fieldsOf(key).map((f) => f.name)]);
      for (const field of list.split(",")) {
        expect(names.has(field), `${key}.${field}`).toBe(true);
        expect(field, key).not.toMatch(/private_key|config_yaml|cert$/);
      }
    }
  });
});

describe("activity entries in words", () => {
  const entry = { actor: "alice@example.test", action: "create", record: "things", label: "Thermostat", timestamp: "2026-11-24 10:00:00.000Z" };

  it("has a noun for every collection the feed covers", () => {
    for (const { key } of inventoryCollections()) {
      expect(describeActivity({ ...entry, record: key }), key).not.toContain(key);
    }
  });
});
