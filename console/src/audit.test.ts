import { describe, expect, it } from "vitest";
import { changesOf, shown, userIdOf } from "./audit";

describe("audit log screen", () => {
  it("names users actors only", () => {
    expect(userIdOf("users:ab12")).toBe("ab12");
    expect(userIdOf("things:ab12")).toBeNull();
    expect(userIdOf("system")).toBeNull();
  });

  it("lists each changed field with the values kept, null where none were", () => {
    expect(changesOf({ changed_fields: ["name", "password"], before: { name: "HQ" }, after: { name: "HQ2" } })).toEqual([
      { field: "name", before: '"HQ"', after: '"HQ2"' },
      { field: "password", before: null, after: null },
    ]);
    expect(changesOf({ changed_fields: ["jwt"], before: null, after: null })).toEqual([{ field: "jwt", before: null, after: null }]);
    expect(changesOf({ changed_fields: null })).toEqual([]);
    expect(shown("x".repeat(500))).toHaveLength(120);
    expect(shown({ a: 1 })).toBe('{"a":1}');
  });
});
