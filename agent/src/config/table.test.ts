import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { withKeysTable } from "../../../common/config/docs-table";
import { AGENT_KEYS } from "./keys";

describe("agent/README.md", () => {
  it("carries the current key table (regenerate with node scripts/config-table.mjs)", () => {
    const doc = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    expect(withKeysTable(doc, AGENT_KEYS, "agent/src/config/keys.ts")).toBe(doc);
  });
});
