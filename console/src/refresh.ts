// When to refresh the session token. The PocketBase SDK never refreshes by itself; a token that expires
// while the console is open would turn every request into a 401.

/** Refresh this long before the token expires. */
export const REFRESH_MARGIN_MS = 10 * 60_000;
/** A tab becoming visible refreshes at most this often (timers of hidden tabs are throttled or frozen). */
export const VISIBLE_REFRESH_INTERVAL_MS = 60_000;
/** setTimeout's largest delay; a longer wait is re-armed when it fires. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Milliseconds until the refresh of a token expiring at `expSeconds` (its `exp` claim) is due. */
export function refreshDelayMs(expSeconds: number, nowMs: number): number {
  const due = expSeconds * 1000 - REFRESH_MARGIN_MS - nowMs;
  return Math.min(Math.max(due, 0), MAX_TIMER_MS);
}

export function refreshOnVisible(lastRefreshMs: number, nowMs: number): boolean {
  return nowMs - lastRefreshMs >= VISIBLE_REFRESH_INTERVAL_MS;
}
