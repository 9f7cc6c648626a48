import { describe, expect, it } from "vitest";
import { accountClaims, type Claims } from "./claims";
import { TWO_YEAR_TENANT, simulateTenant } from "./expiry-simulation";
import { WILDCARD, clockMargin, legacyCutoffReady, prunableAt, prunedRevocations, renewalDue } from "./expiry";

const DAY = 86_400;
const LIFETIME = 30 * DAY;
const T = 1_800_000_000;
const policy = (now: number, unexpiringUntil = 0) => ({ now, longestLifetime: LIFETIME, unexpiringUntil });

/**
 * The length of the token the sidecar signs for `claims` (sidecar/jwt.ts): its header, the payload with
 * iss (56 characters) and jti (52) added, and an ed25519 signature (64 bytes), each base64url-encoded.
 */
function signedLength(claims: Claims): number {
  const base64urlLength = (bytes: number) => Math.ceil((bytes * 4) / 3);
  const header = JSON.stringify({ typ: "JWT", alg: "ed25519-nkey" });
  const payload = JSON.stringify({ jti: "J".repeat(52), iat: claims.iat, iss: `O${"A".repeat(55)}`, ...claims });
  return base64urlLength(header.length) + 1 + base64urlLength(Buffer.byteLength(payload)) + 1 + base64urlLength(64);
}

describe("revocation pruning", () => {
  it("keeps an entry until a lifetime and the clock margin have passed its cutoff, and drops it from then on", () => {
    const horizon = prunableAt(T, LIFETIME);
    expect(horizon).toBe(T + LIFETIME + 60);
    expect(prunedRevocations({ UA: T }, policy(horizon - 1))).toEqual({ list: { UA: T }, nextPruneAt: horizon });
    expect(prunedRevocations({ UA: T }, policy(horizon))).toEqual({ list: {}, nextPruneAt: 0 });
  });

  it("waits for the longest lifetime ever minted, not the configured one", () => {
    const list = prunedRevocations({ UA: T }, { now: T + 2 * DAY, longestLifetime: 10 * DAY, unexpiringUntil: 0 });
    expect(list.list).toEqual({ UA: T });
    expect(list.nextPruneAt).toBe(T + 10 * DAY + 60);
  });

  it("takes a margin of at most a minute, one lifetime for shorter ones", () => {
    expect(clockMargin(LIFETIME)).toBe(60);
    expect(clockMargin(4)).toBe(4);
  });

  it("names the earliest horizon of what it keeps", () => {
    expect(prunedRevocations({ UA: T, UB: T + 10 }, policy(T)).nextPruneAt).toBe(prunableAt(T, LIFETIME));
  });

  it("drops entries a wildcard covers at once, and the wildcard itself on the same rule", () => {
    const { list } = prunedRevocations({ UA: T - 5, UB: T + 5, [WILDCARD]: T }, policy(T + 1));
    expect(list).toEqual({ UB: T + 5, [WILDCARD]: T });
    expect(prunedRevocations({ [WILDCARD]: T }, policy(prunableAt(T, LIFETIME))).list).toEqual({});
  });

  it("keeps every entry while credentials minted without an expiry are not covered by a wildcard", () => {
    const legacy = T - 100;
    expect(prunedRevocations({ UA: T }, policy(T + 5 * LIFETIME, legacy))).toEqual({ list: { UA: T }, nextPruneAt: 0 });
  });

  it("prunes again once a wildcard covers them, keeping that wildcard for good", () => {
    const legacy = T - 100;
    const { list, nextPruneAt } = prunedRevocations({ UA: T, [WILDCARD]: legacy }, policy(T + 5 * LIFETIME, legacy));
    expect(list).toEqual({ [WILDCARD]: legacy });
    expect(nextPruneAt).toBe(0);
  });
});

describe("renewal", () => {
  it("renews a credential with less than half its lifetime left, and one without an expiry at once", () => {
    expect(renewalDue(T + LIFETIME / 2 + 1, T, LIFETIME)).toBe(false);
    expect(renewalDue(T + LIFETIME / 2 - 1, T, LIFETIME)).toBe(true);
    expect(renewalDue(0, T, LIFETIME)).toBe(true);
  });

  it("signs the legacy wildcard only when every active credential expires and the grace has passed", () => {
    expect(legacyCutoffReady([T + LIFETIME], T, T + DAY - 1, LIFETIME)).toBe(false);
    expect(legacyCutoffReady([T + LIFETIME, 0], T, T + DAY, LIFETIME)).toBe(false);
    expect(legacyCutoffReady([T + LIFETIME], T, T + DAY, LIFETIME)).toBe(true);
    expect(legacyCutoffReady([T + 10], T, T + 2, 4)).toBe(true);
  });
});

describe("a tenant over two years (10,000 devices, monthly renewal, 2 % decommissioned and 50 leaked a month, one account-wide revoke)", () => {
  it("keeps the signed account claim at or under 64 KB every day, and re-admits no revoked credential", { timeout: 30_000 }, () => {
    const accountKey = `A${"B".repeat(55)}`;
    const signingKey = `A${"C".repeat(55)}`;
    let largest = 0;
    let entriesMost = 0;
    let renewals = 0;
    let readmitted = 0;
    let lastSigned = "";
    simulateTenant(TWO_YEAR_TENANT, (day) => {
      renewals += day.renewed;
      readmitted += day.readmitted;
      // Measured only when the list changed: the claim's size depends on nothing else.
      const listText = JSON.stringify(day.list);
      if (listText === lastSigned) return;
      lastSigned = listText;
      const claims = accountClaims({
        accountPub: accountKey,
        name: "tenant",
        suspended: false,
        limits: { max_connections: -1, max_subscriptions: -1, max_payload: 1_048_576, max_persist_disk_storage: -1, max_persist_memory_storage: -1 },
        signingKeys: [signingKey],
        revocations: day.list,
        exports: [],
        imports: [],
      });
      largest = Math.max(largest, signedLength({ ...claims, iat: day.now }));
      entriesMost = Math.max(entriesMost, Object.keys(day.list).length);
    });
    expect(readmitted).toBe(0);
    expect(largest).toBeLessThanOrEqual(64 * 1024);
    // Every credential renewed about twice a month: the schedule the model claims to run.
    expect(renewals).toBeGreaterThan(TWO_YEAR_TENANT.devices * 40);
    console.log(`two simulated years: at most ${entriesMost} entries, largest claim ${largest} bytes, ${renewals} renewals`);
  });
});
