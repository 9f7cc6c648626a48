import { describe, expect, it } from "vitest";
import type { Claims } from "./claims";
import { admitsConnections, listedAccounts, withdrawOrphans, withdrawnClaims, type OrphanSources } from "./orphans";

/** An unsigned token carrying `claims` (the code under test reads, never verifies). */
const token = (claims: object) => `e30.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.sig`;
const ACTIVE = token({ iat: 1, name: "acme", nats: { limits: { conn: -1 } } });

/** A bus and a database in memory; `during` runs while the bus is answering the listing. */
function world(bus: string[], database: string[], during: () => void = () => undefined) {
  const db = new Set(database);
  const withdrawn: string[] = [];
  const sources: OrphanSources = {
    listed: () => {
      during();
      return [...bus];
    },
    known: () => new Set(db),
    claimOf: () => ACTIVE,
    withdraw: (claims: Claims) => (withdrawn.push(claims.sub), true),
  };
  return { bus, db, withdrawn, sources };
}

describe("accounts of deleted organizations", () => {
  it("withdraws a listed account that the database does not hold, and only that one", () => {
    const w = world(["ASYS", "AKEPT", "AGONE"], ["ASYS", "AKEPT"]);
    expect(withdrawOrphans(w.sources)).toBe(1);
    expect(w.withdrawn).toEqual(["AGONE"]);
  });

  it("keeps an account whose organization was created while the bus answered the listing", () => {
    // The organization's row commits, then its claim is published, before the listing's reply is read.
    const w = world(["ASYS"], ["ASYS"], () => {
      w.db.add("ANEW");
      w.bus.push("ANEW");
    });
    expect(withdrawOrphans(w.sources)).toBe(0);
    expect(w.withdrawn).toEqual([]);
  });

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
