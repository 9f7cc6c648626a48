import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { keysTable, withKeysTable } from "./table";

describe("the key table of the docs", () => {
  it.each(["docs/configuration.md", "README.md"])("%s carries the current key table (regenerate with node scripts/config-table.mjs)", (name) => {
    const doc = readFileSync(new URL(`../../${name}`, import.meta.url), "utf8");
    expect(doc).toContain("<!-- keys:begin");
    expect(withKeysTable(doc)).toBe(doc);
  });

  it("has one row per key", () => {
    expect(keysTable().split("\n")).toHaveLength(2 + 40);
    expect(keysTable()).toContain("| `bus.server_url` | `PLATFORM_BUS_SERVER_URL` | string | `nats://localhost:4222` |");
    expect(keysTable()).toContain("| `bus.websocket_urls` | `PLATFORM_BUS_WEBSOCKET_URLS` | string-list | empty |");
  });
});
