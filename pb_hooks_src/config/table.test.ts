import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { keysTable, withKeysTable } from "../../common/config/docs-table";
import { PLATFORM_KEYS } from "./keys";

describe("the key table of the docs", () => {
  it.each(["docs/configuration.md", "README.md"])("%s carries the current key table (regenerate with node scripts/config-table.mjs)", (name) => {
    const doc = readFileSync(new URL(`../../${name}`, import.meta.url), "utf8");
    expect(doc).toContain("<!-- keys:begin");
    expect(withKeysTable(doc, PLATFORM_KEYS, "pb_hooks_src/config/keys.ts")).toBe(doc);
  });

  it("has one row per key", () => {
    expect(keysTable(PLATFORM_KEYS).split("\n")).toHaveLength(2 + 46);
    expect(keysTable(PLATFORM_KEYS)).toContain("| `bus.server_url` | `PLATFORM_BUS_SERVER_URL` | string | `nats://localhost:4222` |");
    expect(keysTable(PLATFORM_KEYS)).toContain("| `bus.websocket_urls` | `PLATFORM_BUS_WEBSOCKET_URLS` | string-list | empty |");
  });
});
