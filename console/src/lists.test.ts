import { describe, expect, it } from "vitest";
import { inventoryCollections } from "../../pb_hooks_src/inventory/collections";
import { tenancyCollections } from "../../pb_hooks_src/tenancy/collections";
import type { CollectionNames } from "../../pb_hooks_src/schema/names";
import { INVITE_SORT, MEMBER_SORT, THING_SORTS, pageCount, sortParam } from "./lists";

// Field lists do not depend on the configured collection names; each name stands for itself here.
const NAMES = new Proxy({}, { get: (_target, key) => String(key) }) as CollectionNames;

describe("list parameters", () => {
  it("sorts Things only on fields the things collection has", () => {
    const things = inventoryCollections().find((c) => c.key === "things");
    const fields = new Set(things?.fields.map((f) => f.name));
    for (const { field } of THING_SORTS) expect(fields.has(field), field).toBe(true);
  });

  it("sorts memberships and invitations only on fields those collections have", () => {
    const fieldsOf = (key: string) => new Set(tenancyCollections(NAMES).find((c) => c.key === key)?.fields.map((f) => f.name));
    expect(fieldsOf("memberships").has(MEMBER_SORT)).toBe(true);
    expect(fieldsOf("invites").has(INVITE_SORT)).toBe(true);
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
