// When a bus user's credential is renewed and when a revocation entry may leave its account's claim
// (issue 36; docs/bus.md "Expiry, renewal and pruning"). Pure: times are whole unix seconds, as in a JWT.
//
// A revocation entry `key → cutoff` refuses every credential of that key issued at or before the cutoff.
// Each such credential expires at most one lifetime after its issue, so once a lifetime (the longest one
// ever minted) and a margin for the hub's clock have passed the cutoff, the entry refuses nothing the hub
// would not refuse anyway, and it is dropped. Credentials minted before expiry existed (`unexpiringUntil`)
// never expire: until a wildcard cutoff `*` covers them, the account's entries are kept.

import { parseDuration } from "../../common/config/duration";

/** The account-wide cutoff: every credential of the account issued at or before it is refused. */
export const WILDCARD = "*";
/** How far the hub's clock may lag the control plane's, at most; shorter for lifetimes below it. */
const CLOCK_MARGIN_SECONDS = 60;
/** How long renewed credentials are left to reach their devices before a legacy wildcard cuts off the rest. */
const LEGACY_GRACE_SECONDS = 86_400;

/** A credential lifetime setting (a Go duration, validated at startup) in whole seconds. */
export function lifetimeSeconds(duration: string): number {
  return Math.max(1, Math.floor(parseDuration(duration) / 1000));
}

export type RevocationList = Record<string, number>;

export interface ExpiryPolicy {
  now: number;
  /** The longest lifetime any credential was minted with (bus.user_credential_lifetime, never lowered). */
  longestLifetime: number;
  /** The last issue second of a credential minted without an expiry; 0 when the account has none. */
  unexpiringUntil: number;
}

export function clockMargin(lifetime: number): number {
  return Math.min(CLOCK_MARGIN_SECONDS, lifetime);
}

/** When the entry `cutoff` stops refusing anything the hub would not: a full lifetime plus the margin later. */
export function prunableAt(cutoff: number, longestLifetime: number): number {
  return cutoff + longestLifetime + clockMargin(longestLifetime);
}

/**
 * The list as it may be signed now: entries a wildcard makes redundant and entries past their horizon
 * dropped, and when the next entry becomes prunable (0: none will). The wildcard itself is kept while it
 * covers credentials that never expire.
 */
export function prunedRevocations(list: RevocationList, policy: ExpiryPolicy): { list: RevocationList; nextPruneAt: number } {
  const wildcard = list[WILDCARD] ?? 0;
  const legacyCovered = policy.unexpiringUntil === 0 || wildcard >= policy.unexpiringUntil;
  const drops = (key: string, cutoff: number) => {
    if (key !== WILDCARD && cutoff <= wildcard) return true;
    return !isPermanent(key) && prunableAt(cutoff, policy.longestLifetime) <= policy.now;
  };
  const isPermanent = (key: string) => !legacyCovered || (key === WILDCARD && policy.unexpiringUntil > 0);
  // One pass without building anything: most saves drop nothing, and in goja a copy of a 5,000-entry
  // list costs more than the rest of the revocation.
  let dropping = false;
  let nextPruneAt = 0;
  for (const key in list) {
    const cutoff = list[key];
    if (drops(key, cutoff)) {
      dropping = true;
      continue;
    }
    const at = prunableAt(cutoff, policy.longestLifetime);
    if (!isPermanent(key) && (nextPruneAt === 0 || at < nextPruneAt)) nextPruneAt = at;
  }
  if (!dropping) return { list, nextPruneAt };
  const kept: RevocationList = {};
  for (const key in list) if (!drops(key, list[key])) kept[key] = list[key];
  return { list: kept, nextPruneAt };
}

/** Whether a credential is re-minted now: it never expires, or less than half its lifetime is left. */
export function renewalDue(expires: number, now: number, lifetime: number): boolean {
  return expires === 0 || expires - now < lifetime / 2;
}

/** The expiry at or below which a credential is due for renewal at `now`. */
export function renewalThreshold(now: number, lifetime: number): number {
  return now + Math.ceil(lifetime / 2);
}

/**
 * Whether the wildcard cutoff at `unexpiringUntil` may be signed: every active user holds an expiring
 * credential (each minted after that second: bus/users.ts#mint), and a day has passed since (half a
 * lifetime if shorter) for devices to pick their renewed credentials up. A device that has not is refused
 * once by the hub and syncs at once.
 */
export function legacyCutoffReady(activeExpiries: readonly number[], unexpiringUntil: number, now: number, lifetime: number): boolean {
  const grace = Math.min(LEGACY_GRACE_SECONDS, Math.floor(lifetime / 2));
  return now >= unexpiringUntil + grace && activeExpiries.every((expires) => expires > 0);
}
