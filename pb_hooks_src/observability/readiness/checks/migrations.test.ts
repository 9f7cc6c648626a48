import { describe, expect, it } from "vitest";
import { knownMigrations, unknownMigrations } from "./migrations";

describe("unknownMigrations", () => {
  it("is empty when every applied migration is known", () => {
    expect(unknownMigrations(["1_init.js", "2_users.js"], ["1_init.js", "2_users.js", "3_pending.js"])).toEqual([]);
  });

  it("lists the applied migrations this build does not know", () => {
    expect(unknownMigrations(["1_init.js", "9_future.js"], ["1_init.js"])).toEqual(["9_future.js"]);
  });

  it("keeps the applied order", () => {
    expect(unknownMigrations(["z_newer.js", "1_init.js", "a_newest.js", "m_middle.js"], ["1_init.js"])).toEqual(["z_newer.js", "a_newest.js", "m_middle.js"]);
  });

  it("does not report pending migrations (known but not applied)", () => {
    expect(unknownMigrations([], ["1_init.js"])).toEqual([]);
  });

  it("lists everything when nothing is known", () => {
    expect(unknownMigrations(["1_init.js", "2_users.js"], [])).toEqual(["1_init.js", "2_users.js"]);
  });
});

describe("knownMigrations", () => {
  it("is empty outside a build, where the build-time lists are not defined", () => {
    expect(knownMigrations()).toEqual([]);
  });
});
