import { describe, expect, it } from "vitest";
import { inventoryCollections } from "../../pb_hooks_src/inventory/collections";
import { THING_SORTS, pageCount, sortParam } from "./lists";

describe("list parameters", () => {
  it("sorts Things only on fields the things collection has", () => {
    const things = inventoryCollections().find((c) => c.key === "things");
    const fields = new Set(things?.fields.map((f) => f.name));
    for (const { field } of THING_SORTS) expect(fields.has(field), field).toBe(true);
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
