import { describe, expect, it } from "vitest";
import { loadConfig } from "../config/load";
import { parseYaml } from "../../common/config/yaml";
import { ROLES, type Role } from "../lib/roles";
import { platformCollections } from "./collections";
import { collectionNames } from "./names";
import { COUNTED_LISTS, rowCountStatements } from "./row-counts";
import { anyOf, memberListing } from "./rules";

const n = collectionNames(loadConfig({ env: {}, args: ["pocketbase"], cwd: "/nowhere", readFile: () => undefined, parseYaml }));

describe("counted lists", () => {
  it("are collections whose list rule is memberListing alone, so a user sees all of one organization or nothing", () => {
    const specs = platformCollections(n);
    for (const key of COUNTED_LISTS) {
      const rule = specs.find((s) => s.key === key)?.rules.list;
      // The roles that see the list, read back from the rule's allowlist.
      const roles = ROLES.filter((role) => rule?.includes(`@request.auth.current_role = "${role}"`)) as Role[];
      expect(roles.length, key).toBeGreaterThan(0);
      // Things write it bare, the orgScopedRules collections as a one-branch disjunction.
      expect([memberListing("organization", roles), anyOf(memberListing("organization", roles))], key).toContain(rule);
    }
  });

  it("keep the count by triggers keyed by collection id, then count afresh", () => {
    const sql = rowCountStatements("things", "pbc_123").join("\n");
    expect(sql).toContain(`AFTER INSERT ON "things"`);
    expect(sql).toContain(`AFTER DELETE ON "things"`);
    expect(sql).toContain(`AFTER UPDATE OF organization ON "things"`);
    expect(sql).toContain("VALUES ('pbc_123', NEW.organization, 1)");
    expect(sql.indexOf("CREATE TRIGGER")).toBeLessThan(sql.indexOf("SELECT 'pbc_123', organization, COUNT(*)"));
  });

  it("refuses a name that is not a collection's rather than put it into SQL", () => {
    expect(() => rowCountStatements("things; DROP TABLE users", "pbc_1")).toThrow(/not a collection/);
    expect(() => rowCountStatements("things", "x'); --")).toThrow(/not a collection/);
  });
});
