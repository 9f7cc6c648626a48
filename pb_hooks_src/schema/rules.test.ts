import { describe, expect, it } from "vitest";
import { all, anyOf, memberListing, memberOf, oneOf } from "./rules";

describe("rule composition", () => {
  it("keeps a disjunction together inside a conjunction", () => {
    expect(all("a = 1", anyOf("b = 1", "c = 1"))).toBe("a = 1 && ((b = 1) || (c = 1))");
  });

  it("lists allowed values as a parenthesized disjunction", () => {
    expect(oneOf("role", ["owner", "admin"])).toBe(`(role = "owner" || role = "admin")`);
  });

  it("requires a non-blank active organization equal to the record's and an allowed role held there", () => {
    for (const rule of [memberOf("organization", ["owner", "admin"]), memberListing("organization", ["owner", "admin"])]) {
      expect(rule).toContain(`@request.auth.collectionName = "users"`);
      expect(rule).toContain(`@request.auth.current_organization != ""`);
      expect(rule).toContain(`(@request.auth.current_role = "owner" || @request.auth.current_role = "admin")`);
      expect(rule).not.toContain("@collection");
    }
  });

  it("compares by value where ids name the records, and with the seekable scope in a list", () => {
    expect(memberOf("organization", ["viewer"])).toContain("organization = @request.auth.current_organization");
    expect(memberOf("organization", ["viewer"])).not.toContain("current_scope");
    expect(memberListing("organization", ["viewer"])).toContain("organization = @request.auth.current_scope");
  });

  it("holds a single null-rejecting term on the caller's row, so SQLite reads that row first", () => {
    // Implied by the role allowlist (no role is blank), so the rule is exactly as strict without it.
    expect(memberOf("organization", ["viewer"])).toContain(` && @request.auth.current_role > "" && `);
    expect(memberListing("organization", ["viewer"])).toContain(` && @request.auth.current_role > "" && `);
  });
});
