import { describe, expect, it } from "vitest";
import type { CollectionKey } from "../../../schema/names";
import type { CollectionSpec } from "../../../schema/spec";
import { describeGaps, schemaGaps } from "./schema-gaps";

const OPEN = { list: null, view: null, create: null, update: null, delete: null };

function spec(key: CollectionKey, fields: string[]): CollectionSpec {
  return { key, type: "base", fields: fields.map((name) => ({ type: "text" as const, name })), indexes: [], rules: OPEN };
}

const SPECS = [spec("organizations", ["name", "active"]), spec("things", ["name", "active", "organization"]), spec("locations", ["name"])];

/** Configured names: organizations is renamed to "orgs". */
const nameOf = (s: CollectionSpec) => (s.key === "organizations" ? "orgs" : s.key);
const existing = (collections: Record<string, string[]>) => (name: string) => collections[name];

describe("schemaGaps", () => {
  it("finds no gaps when every collection has every platform field", () => {
    const gaps = schemaGaps(SPECS, nameOf, existing({ orgs: ["id", "name", "active"], things: ["id", "name", "active", "organization"], locations: ["name"] }));
    expect(gaps).toEqual({ missing: [], incomplete: [] });
  });

  it("lists collections that do not exist, under their configured names", () => {
    const gaps = schemaGaps(SPECS, nameOf, existing({ things: ["name", "active", "organization"] }));
    expect(gaps.missing).toEqual(["orgs", "locations"]);
    expect(gaps.incomplete).toEqual([]);
  });

  it("does not look up a collection under its key when it is configured under another name", () => {
    const gaps = schemaGaps(SPECS, nameOf, existing({ organizations: ["name", "active"], things: ["name", "active", "organization"], locations: ["name"] }));
    expect(gaps.missing).toEqual(["orgs"]);
  });

  it("lists existing collections without some of their fields, with those fields in spec order", () => {
    const gaps = schemaGaps(SPECS, nameOf, existing({ orgs: ["id"], things: ["name"], locations: ["name"] }));
    expect(gaps.incomplete).toEqual([
      { collection: "orgs", fields: ["name", "active"] },
      { collection: "things", fields: ["active", "organization"] },
    ]);
  });

  it("ignores fields a collection has beyond the spec", () => {
    const gaps = schemaGaps([spec("locations", ["name"])], nameOf, existing({ locations: ["name", "custom", "extra"] }));
    expect(gaps).toEqual({ missing: [], incomplete: [] });
  });
});

describe("describeGaps", () => {
  it("is undefined when nothing is missing", () => {
    expect(describeGaps({ missing: [], incomplete: [] })).toBeUndefined();
  });

  it("names missing collections", () => {
    expect(describeGaps({ missing: ["orgs", "locations"], incomplete: [] })).toBe(
      "the platform schema was never imported or is incomplete: missing collections: orgs, locations",
    );
  });

  it("names collections lacking fields, with the fields", () => {
    expect(describeGaps({ missing: [], incomplete: [{ collection: "things", fields: ["active", "organization"] }] })).toBe(
      "the platform schema was never imported or is incomplete: collections without their platform fields: things (active, organization)",
    );
  });

  it("names both kinds of gap, missing collections first", () => {
    expect(describeGaps({ missing: ["orgs"], incomplete: [{ collection: "things", fields: ["name"] }] })).toBe(
      "the platform schema was never imported or is incomplete: missing collections: orgs; collections without their platform fields: things (name)",
    );
  });

  it("lists five items in full", () => {
    expect(describeGaps({ missing: ["a", "b", "c", "d", "e"], incomplete: [] })).toContain("missing collections: a, b, c, d, e");
    expect(describeGaps({ missing: ["a", "b", "c", "d", "e"], incomplete: [] })).not.toContain("more");
  });

  it("shows the first five of a longer list of collections and counts the rest", () => {
    expect(describeGaps({ missing: ["a", "b", "c", "d", "e", "f", "g"], incomplete: [] })).toBe(
      "the platform schema was never imported or is incomplete: missing collections: a, b, c, d, e and 2 more",
    );
  });

  it("shows the first five of a longer list of fields and counts the rest", () => {
    const fields = ["f1", "f2", "f3", "f4", "f5", "f6"];
    expect(describeGaps({ missing: [], incomplete: [{ collection: "things", fields }] })).toContain("things (f1, f2, f3, f4, f5 and 1 more)");
  });

  it("truncates the list of incomplete collections too", () => {
    const incomplete = ["a", "b", "c", "d", "e", "f"].map((collection) => ({ collection, fields: ["x"] }));
    expect(describeGaps({ missing: [], incomplete })).toContain("a (x), b (x), c (x), d (x), e (x) and 1 more");
  });
});
