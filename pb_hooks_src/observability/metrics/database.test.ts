import { describe, expect, it } from "vitest";
import { collectionNames } from "../../schema/names";
import { countsQuery, parseCounts } from "./database";
import type { PlatformConfig } from "../../config/types";

// Only the configurable names matter here.
const names = collectionNames({
  tenancy: { organizations_collection: "orgs", memberships_collection: "memberships", invites_collection: "invites" },
  bus: { account_collection_name: "accts", user_collection_name: "bus_users", role_collection_name: "bus_roles", export_collection_name: "x", import_collection_name: "i" },
  overlay: { ca_collection_name: "overlay_ca", network_collection_name: "overlay_networks", host_collection_name: "overlay_hosts" },
  audit: { collection_name: "audit_logs" },
} as unknown as PlatformConfig);

describe("countsQuery", () => {
  it("counts the configured tables under canonical keys in one statement", () => {
    const sql = countsQuery(names);
    expect(sql.startsWith("SELECT json_object(")).toBe(true);
    expect(sql).toContain("'organizations', (SELECT COUNT(*) FROM {{orgs}})");
    expect(sql).toContain("FROM {{things}} WHERE COALESCE([[active]], 0) = 0");
    expect(sql).toContain("FROM {{accts}} AS a, json_each(");
    expect(sql).toContain("COALESCE(SUM(length(COALESCE([[jwt]], '')) <= 524288), 0)");
  });
});

describe("parseCounts", () => {
  it("reads every count, in the order of the collection names", () => {
    const sizes = [3, 4, 4, 4, 5, 6, 2_000_000];
    const json = Object.fromEntries([...Object.keys(names).map((k, i) => [k, i]), ["inactive_things", 2], ["revoked_bus_users", 1], ["account_claim_sizes", sizes]]);
    const counts = parseCounts(names, JSON.stringify(json));
    expect(counts.claimSizes).toEqual({ atMost: [3, 4, 4, 4, 5], accounts: 6, largestBytes: 2_000_000 });
    expect(counts.records[0]).toEqual(["organizations", 0]);
    expect(counts.records).toHaveLength(Object.keys(names).length);
    expect(counts.inactiveThings).toBe(2);
    expect(counts.revokedBusUsers).toBe(1);
  });

  it("fails when a count is missing", () => {
    expect(() => parseCounts(names, JSON.stringify({ things: 1 }))).toThrow(/no count for organizations/);
    const withoutSizes = Object.fromEntries([...Object.keys(names).map((k) => [k, 0]), ["inactive_things", 0], ["revoked_bus_users", 0]]);
    expect(() => parseCounts(names, JSON.stringify(withoutSizes))).toThrow(/no count for account_claim_sizes/);
  });
});
