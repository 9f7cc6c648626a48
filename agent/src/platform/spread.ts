// Spreading a fleet's requests over time (docs/decisions/305-fleet-requests-spread.md): 100,000 devices
// enrolled in one hour, or restarted at once, must not poll or refresh their tokens in the same minute.

/** Each poll waits its interval times a factor in [1 - POLL_JITTER, 1 + POLL_JITTER). */
export const POLL_JITTER = 0.2;

/** A Thing refreshes its token once it is REFRESH_AFTER_MS plus its own share of this window old. */
export const REFRESH_SPREAD_MS = 86_400_000;

/**
 * The wait before the next poll: `intervalMs` jittered by ±POLL_JITTER afresh each time, so agents that
 * started together drift apart instead of polling in lockstep.
 */
export function jitteredDelay(intervalMs: number, random: () => number): number {
  return Math.round(intervalMs * (1 - POLL_JITTER + 2 * POLL_JITTER * random()));
}

/**
 * The token age at which this Thing refreshes: `afterMs` plus a share of REFRESH_SPREAD_MS fixed by the
 * Thing's id (FNV-1a), so a restart keeps the Thing's moment and Things enrolled together refresh apart.
 */
export function refreshAgeOf(thingId: string, afterMs: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < thingId.length; i++) hash = Math.imul(hash ^ thingId.charCodeAt(i), 0x01000193) >>> 0;
  return afterMs + Math.floor((hash / 2 ** 32) * REFRESH_SPREAD_MS);
}
