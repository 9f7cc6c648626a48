// Delay before restarting a nebula that exited on its own: doubling from 1 s to at most 60 s, so a config
// or host problem never turns into a tight restart loop; a run that lasted a minute starts the count over.
import { doublingDelay } from "../lib/backoff";

export const FIRST_DELAY_MS = 1_000;
export const MAX_DELAY_MS = 60_000;
/** A run at least this long counts as healthy: the next crash waits FIRST_DELAY_MS again. */
export const STABLE_RUN_MS = 60_000;

/** The delay before restart number `failures` (1 for the first crash in a row). */
export function restartDelay(failures: number): number {
  return doublingDelay(FIRST_DELAY_MS, failures - 1, MAX_DELAY_MS);
}

/** Crashes in a row after one more exit, given how long the run lasted. */
export function nextFailures(failures: number, ranMs: number): number {
  return ranMs >= STABLE_RUN_MS ? 1 : failures + 1;
}
