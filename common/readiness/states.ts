// Check states of the readiness report (spec 3.1). Pure: runs in goja and in Node.

export type CheckState = "ok" | "warn" | "fail" | "skipped";

/** Every state, in the order the spec lists them (also the order of metric series). */
export const CHECK_STATES: readonly CheckState[] = ["ok", "warn", "fail", "skipped"];

/** Severity rank: fail > warn > ok > skipped. */
export const SEVERITY: Readonly<Record<CheckState, number>> = { skipped: 0, ok: 1, warn: 2, fail: 3 };

/**
 * The worst state across results, computed from the results themselves (not seeded from ok):
 * every check skipped gives skipped, and an empty list gives skipped too.
 */
export function worstState(states: readonly CheckState[]): CheckState {
  let worst: CheckState = "skipped";
  for (const state of states) {
    if (SEVERITY[state] > SEVERITY[worst]) worst = state;
  }
  return worst;
}

/** HTTP status of GET /api/ready for a top-level state: 503 for fail, 200 otherwise. */
export function httpStatus(state: CheckState): number {
  return state === "fail" ? 503 : 200;
}
