import { describe, expect, it } from "vitest";
import { loadConfig } from "../../pb_hooks_src/config/load";
import { parseYaml } from "../../pb_hooks_src/config/yaml";
import { platformCollections } from "../../pb_hooks_src/schema/collections";
import { collectionNames } from "../../pb_hooks_src/schema/names";
import { AUDIT_ACTIONS, NO_FILTERS, auditFilter, changesOf, shown, userIdOf } from "./audit";

const audit = platformCollections(collectionNames(loadConfig({ env: {}, args: ["pocketbase"], cwd: "/nowhere", readFile: () => undefined, parseYaml }))).find((c) => c.key === "audit_logs");

describe("audit log screen", () => {
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
