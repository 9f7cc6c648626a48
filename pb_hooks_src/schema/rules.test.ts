import { describe, expect, it } from "vitest";
import { all, anyOf, memberOf, oneOf } from "./rules";

describe("rule composition", () => {
  it("keeps a disjunction together inside a conjunction", () => {
    expect(all("a = 1", anyOf("b = 1", "c = 1"))).toBe("a = 1 && ((b = 1) || (c = 1))");
  });

  it("lists allowed values as a parenthesized disjunction", () => {
    expect(oneOf("role", ["owner", "admin"])).toBe(`(role = "owner" || role = "admin")`);
  });

  it("requires a non-blank active organization and a membership row with an allowed role", () => {
    const rule = memberOf("memberships", "organization", ["owner"]);
    expect(rule).toContain(`@request.auth.current_organization != ""`);
    expect(rule).toContain("organization = @request.auth.current_organization");
    expect(rule).toContain("@collection.memberships:m.user ?= @request.auth.id");
    expect(rule).toContain("@collection.memberships:m.organization ?= organization");
    expect(rule).toContain(`@collection.memberships:m.role ?= "owner"`);
  });
});
