import { describe, expect, it } from "vitest";
import { admitsConnections, listedAccounts, withdrawnClaims } from "./orphans";

describe("accounts of deleted organizations", () => {
  it("reads the account keys of a claims listing", () => {
    expect(listedAccounts(JSON.stringify({ server: { name: "hub" }, data: ["AAA", "ABB"] }))).toEqual(["AAA", "ABB"]);
    expect(listedAccounts(JSON.stringify({ server: {} }))).toEqual([]);
  });

  it("tells a claim that admits connections from a withdrawn one", () => {
    expect(admitsConnections({ nats: { limits: { conn: -1 } } })).toBe(true);
    expect(admitsConnections({ nats: { limits: { conn: 5 } } })).toBe(true);
    expect(admitsConnections({ nats: {} })).toBe(true);
    expect(admitsConnections({ nats: { limits: { conn: 0 } } })).toBe(false);
  });

  it("withdraws with a suspended claim issued after the last one, keeping its stored-data limits", () => {
    const future = Math.floor(Date.now() / 1000) + 100;
    const claims = withdrawnClaims("AXYZ", { name: "acme", nats: { limits: { conn: -1, disk_storage: 1024, mem_storage: 64 } } }, future);
    expect(claims).toMatchObject({ sub: "AXYZ", name: "acme", iat: future + 1 });
    expect(claims.nats).toMatchObject({ limits: { conn: 0, subs: 0, payload: 0, leaf: 0, data: 0, disk_storage: 1024, mem_storage: 64 }, signing_keys: [] });
    expect(admitsConnections(claims as unknown as Record<string, unknown>)).toBe(false);
  });
});
