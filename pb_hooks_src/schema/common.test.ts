import { describe, expect, it } from "vitest";
import { ORGANIZATION, referrerIndexes } from "./common";
import type { CollectionSpec } from "./spec";

const spec = (fields: CollectionSpec["fields"], indexes: string[]): CollectionSpec => ({
  key: "things",
  type: "base",
  fields,
  indexes,
  rules: { list: null, view: null, create: null, update: null, delete: null },
});

describe("referrerIndexes", () => {
  it("indexes each relation field no index leads with, and nothing else", () => {
    const fields: CollectionSpec["fields"] = [
      ORGANIZATION,
      { type: "relation", name: "location", target: "locations" },
      { type: "relation", name: "network", target: "overlay_networks" },
      { type: "text", name: "name" },
    ];
    const indexes = ["CREATE INDEX idx_{table}_org_scope ON {table} (organization)", "CREATE UNIQUE INDEX idx_{table}_network_ip ON {table} (network, overlay_ip)"];
    expect(referrerIndexes(spec(fields, indexes))).toEqual(["CREATE INDEX idx_{table}_by_location ON {table} (location)"]);
  });

  it("counts an index that has the field second as no help", () => {
    const fields: CollectionSpec["fields"] = [{ type: "relation", name: "user", target: "users" }];
    expect(referrerIndexes(spec(fields, ["CREATE INDEX idx_{table}_org_user ON {table} (organization, user)"]))).toEqual([
      "CREATE INDEX idx_{table}_by_user ON {table} (user)",
    ]);
  });
});
