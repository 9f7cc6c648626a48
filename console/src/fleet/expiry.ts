// Credentials and certificates within their warning windows (issue 38 item 3). Overlay certificates use
// the readiness check's windows (spec 4.3: 30 days for a host, 90 for the CA). A bus user's credential is
// renewed by the platform with half its lifetime left, a pass every tenth of a lifetime (docs/bus.md
// "Expiry, renewal and pruning"), so an active one with less than 40 % left has missed its renewal. Pure.
import { ACCOUNT_CLAIM_WARNING_SHARE, MAX_ACCOUNT_JWT_BYTES } from "../../../common/bus/account-claim";

const DAY_MS = 86_400_000;
export const HOST_CERT_WARNING_MS = 30 * DAY_MS;
export const CA_CERT_WARNING_MS = 90 * DAY_MS;
/** Share of a credential's lifetime left below which its renewal is overdue. */
export const CREDENTIAL_WARNING_SHARE = 0.4;

export type Standing = "expired" | "expiring" | "ok" | "unknown";

/** A certificate's standing from its notAfter (a PocketBase date, "" when none) and its window. */
export function certificateStanding(notAfter: string, windowMs: number, nowMs: number): Standing {
  const at = notAfter ? Date.parse(notAfter.replace(" ", "T")) : NaN;
  if (Number.isNaN(at)) return "unknown";
  if (at <= nowMs) return "expired";
  return at - nowMs <= windowMs ? "expiring" : "ok";
}

/**
 * A bus credential's standing from its expiry and issue seconds (undefined: unreadable; expiry 0: minted
 * before credentials expired, which never expires and so is "ok").
 */
export function credentialStanding(window: { issuedAt: number; expires: number } | undefined, expires: number, nowMs: number): Standing {
  if (expires === 0) return "ok";
  if (expires * 1000 <= nowMs) return "expired";
  if (!window) return "unknown";
  const lifetimeMs = (window.expires - window.issuedAt) * 1000;
  return expires * 1000 - nowMs < CREDENTIAL_WARNING_SHARE * lifetimeMs ? "expiring" : "ok";
}

export interface ClaimSize {
  bytes: number;
  ceiling: number;
  /** Share of the ceiling, 0..1 (past 1 cannot be stored). */
  share: number;
  large: boolean;
}

/** The account claim's size against the ceiling the bus takes (decision 083). */
export function claimSize(jwt: string): ClaimSize {
  const share = jwt.length / MAX_ACCOUNT_JWT_BYTES;
  return { bytes: jwt.length, ceiling: MAX_ACCOUNT_JWT_BYTES, share, large: share > ACCOUNT_CLAIM_WARNING_SHARE };
}
