import { describe, expect, it } from "vitest";
import { hubAccountOf, mergeHubAccount } from "./hub-merge";

const record = { revocations: { UA: 100 }, active: true, issuedAt: 1_000 };

describe("mergeHubAccount", () => {
  it("keeps every revocation the hub holds, the later cutoff winning, and names the adopted keys", () => {
    const merged = mergeHubAccount({ ...record, revocations: { UA: 100, UB: 500 } }, { revocations: { UA: 300, UB: 400, UC: 900 }, suspended: false, issuedAt: 1_100 });
    expect(merged.revocations).toEqual({ UA: 300, UB: 500, UC: 900 });
    expect(merged.adopted).toEqual(["UA", "UC"]);
    expect(merged.newerAtHub).toBe(true);
  });

  it("keeps a suspension the hub took after the record's claim", () => {
    expect(mergeHubAccount(record, { revocations: {}, suspended: true, issuedAt: 1_001 }).suspend).toBe(true);
  });

  it("keeps the hub's revocations under a record changed after its claim, but not its suspension (a reactivation)", () => {
    expect(mergeHubAccount(record, { revocations: { UA: 100, UZ: 50 }, suspended: true, issuedAt: 999 })).toEqual({ revocations: { UA: 100, UZ: 50 }, adopted: ["UZ"], suspend: false, newerAtHub: false });
  });

  it("changes nothing when the hub holds the record's own claim", () => {
    expect(mergeHubAccount(record, { revocations: { UA: 100 }, suspended: false, issuedAt: 1_000 })).toEqual({ revocations: { UA: 100 }, adopted: [], suspend: false, newerAtHub: false });
  });
});

describe("hubAccountOf", () => {
  it("reads revocations, the suspension and the issue second of an account claim", () => {
    expect(hubAccountOf({ iat: 5, nats: { type: "account", revocations: { UA: 3, bad: "x" }, limits: { conn: 0 } } })).toEqual({ revocations: { UA: 3 }, suspended: true, issuedAt: 5 });
    expect(hubAccountOf({ iat: 5, nats: { type: "account", limits: { conn: -1 } } })).toEqual({ revocations: {}, suspended: false, issuedAt: 5 });
  });

  it("is undefined for anything but an account claim", () => {
    expect(hubAccountOf(null)).toBeUndefined();
    expect(hubAccountOf({ nats: { type: "user" } })).toBeUndefined();
  });
});
