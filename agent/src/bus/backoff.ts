// The wait between two dials of the hub: doubling from `initialMs` up to `maxMs`, with up to a fifth of
// jitter so that a fleet cut off together does not return in lockstep.
import { doublingDelay } from "../lib/backoff";

export interface BackoffSettings {
  initialMs: number;
  maxMs: number;
}

export interface Backoff {
  /** The wait before the next attempt; each call lengthens the following one. */
  next(): number;
  reset(): void;
}

export function createBackoff(settings: BackoffSettings, random: () => number = Math.random): Backoff {
  let attempt = 0;
  return {
    next() {
      const base = doublingDelay(settings.initialMs, Math.min(attempt, 30), settings.maxMs);
      attempt++;
      return Math.round(base * (1 - 0.2 * random()));
    },
    reset() {
      attempt = 0;
    },
  };
}
