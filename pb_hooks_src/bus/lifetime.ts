// The lifetime bus user credentials are minted with (bus.user_credential_lifetime), and the longest one
// ever used, which the operator's row keeps: pruning waits that long after a cutoff (bus/expiry.ts), so
// shortening the setting never prunes an entry that still refuses a credential minted under the old one.
import { currentConfig } from "../config/runtime";
import { lifetimeSeconds } from "./expiry";
import { findOperator } from "./operator";

const LONGEST_FIELD = "longest_user_credential_lifetime";

export function configuredLifetime(): number {
  return lifetimeSeconds(currentConfig().bus.user_credential_lifetime);
}

/** For a mint inside `tx`: the configured lifetime, recorded first as the longest when it is. */
export function lifetimeForMint(tx: CoreApp): number {
  const lifetime = configuredLifetime();
  const operator = findOperator(tx);
  if (operator && operator.getInt(LONGEST_FIELD) < lifetime) {
    operator.set(LONGEST_FIELD, lifetime);
    tx.save(operator);
  }
  return lifetime;
}

/** The longest lifetime a credential may have been minted with. */
export function longestLifetime(app: CoreApp): number {
  return Math.max(configuredLifetime(), findOperator(app)?.getInt(LONGEST_FIELD) ?? 0);
}

/** The credential upkeep's period: a tenth of a lifetime, between a second and a minute. */
export function upkeepIntervalMs(): number {
  return Math.min(60_000, Math.max(1_000, Math.floor((configuredLifetime() * 1000) / 10)));
}
