import { describe, expect, it } from "vitest";
import { indexName, leadingColumn, withIndexes } from "./index-statements";

describe("index statements", () => {
  it("names the index of a statement, quoted or not", () => {
    expect(indexName("CREATE INDEX idx_things_org_scope ON things (organization)")).toBe("idx_things_org_scope");
    expect(indexName("CREATE UNIQUE INDEX `idx_users_email_nocase` ON `users` (`email` COLLATE NOCASE)")).toBe(
      "idx_users_email_nocase",
    );
    expect(indexName('create index if not exists "idx_a" on a (b)')).toBe("idx_a");
  });

  it("replaces an index whose definition changed under the same name, and keeps the others", () => {
    const current = [
      "CREATE INDEX idx_things_org_scope ON things (COALESCE(organization, ''))",
      "CREATE UNIQUE INDEX idx_things_email ON things (email)",
    ];
    const wanted = ["CREATE INDEX idx_things_org_scope ON things (organization)"];
    expect(withIndexes(current, wanted)).toEqual([current[1], wanted[0]]);
    expect(withIndexes([...current.slice(1), ...wanted], wanted)).toEqual([current[1], wanted[0]]);
  });

  it("reads the first column an index leads with, quoted or not, with a collation or a condition", () => {
    expect(leadingColumn("CREATE UNIQUE INDEX idx_{table}_user_org ON {table} (user, organization)")).toBe("user");
    expect(leadingColumn("CREATE UNIQUE INDEX `idx_users_email_nocase` ON `users` (`email` COLLATE NOCASE) WHERE `email` != ''")).toBe("email");
    expect(leadingColumn("create index idx_a on a(b)")).toBe("b");
    expect(leadingColumn("not an index")).toBe("");
  });
});
