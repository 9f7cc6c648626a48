import { describe, expect, it } from "vitest";
import { indexName } from "./index-name";

describe("indexName", () => {
  it("reads the name in the forms PocketBase stores", () => {
    expect(indexName("CREATE INDEX idx_things_org_scope ON things (COALESCE(organization, ''))")).toBe("idx_things_org_scope");
    expect(indexName("CREATE UNIQUE INDEX `idx_code` ON `organizations` (`code`)")).toBe("idx_code");
    expect(indexName('create index if not exists "idx_x" on t (a)')).toBe("idx_x");
  });

  it("gives nothing for text that is not an index", () => {
    expect(indexName("CREATE TABLE t (a)")).toBeUndefined();
  });
});
