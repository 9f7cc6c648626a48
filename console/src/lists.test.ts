import { describe, expect, it } from "vitest";
import { THING_SORTS, pageCount, sortParam } from "./lists";

describe("list parameters", () => {
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
