import { describe, expect, it } from "vitest";
import { caseInsensitiveEmailIndex, duplicateRefusal, withCaseInsensitiveEmail, withoutCaseInsensitiveEmail } from "./email-index";

// The index PocketBase gives every auth collection, as it writes it.
const STOCK = "CREATE UNIQUE INDEX `idx_email__pb_users_auth_` ON `users` (`email`) WHERE `email` != ''";
const TOKEN_KEY = "CREATE UNIQUE INDEX `idx_tokenKey__pb_users_auth_` ON `users` (`tokenKey`)";
const OTHER = "CREATE INDEX `idx_users_email_created` ON `users` (`email`, `created`)";

describe("withCaseInsensitiveEmail", () => {
  it("replaces the stock unique index on email and keeps the others", () => {
    expect(withCaseInsensitiveEmail([TOKEN_KEY, STOCK, OTHER], "users")).toEqual([TOKEN_KEY, OTHER, caseInsensitiveEmailIndex("users")]);
  });

  it("recognizes the stock index however it is quoted", () => {
    for (const stock of ["CREATE UNIQUE INDEX idx_e ON users (email)", 'create unique index "idx_e" on "users" ( "email" ) where email != \'\'']) {
      expect(withCaseInsensitiveEmail([stock], "users")).toEqual([caseInsensitiveEmailIndex("users")]);
    }
  });

  it("is idempotent", () => {
    const once = withCaseInsensitiveEmail([TOKEN_KEY, STOCK], "users");
    expect(withCaseInsensitiveEmail(once, "users")).toEqual(once);
  });

  it("collates with NOCASE, which folds ASCII letters only", () => {
    expect(caseInsensitiveEmailIndex("users")).toBe("CREATE UNIQUE INDEX `idx_users_email_nocase` ON `users` (`email` COLLATE NOCASE) WHERE `email` != ''");
  });
});

describe("withoutCaseInsensitiveEmail", () => {
  it("removes only the case-insensitive index", () => {
    expect(withoutCaseInsensitiveEmail([TOKEN_KEY, OTHER, caseInsensitiveEmailIndex("users")], "users")).toEqual([TOKEN_KEY, OTHER]);
  });
});

describe("duplicateRefusal", () => {
  it("is undefined without duplicates", () => {
    expect(duplicateRefusal("users", [])).toBeUndefined();
  });

  it("names every address of every group and what to do", () => {
    const message = duplicateRefusal("users", [["BOB@example.com", "bob@example.com"], ["Ann@x.test", "ann@X.test", "ANN@x.test"]]);
    expect(message).toContain('"BOB@example.com", "bob@example.com"; "Ann@x.test", "ann@X.test", "ANN@x.test"');
    expect(message).toMatch(/^users\.email must be unique up to letter case/);
    expect(message).toContain("Nothing was changed");
    expect(message).toContain("migrate up");
  });
});
