// One series' counts (one route and method) as a flat array of numbers, so that a hook VM publishes a
// series with one call into Go: requests by status class, observations by duration bucket (the last is
// +Inf), then the sum of the observed seconds. Pure.
import { bucketIndex, DEFAULT_BUCKETS, STATUS_CLASSES, statusClassIndex } from "./http";

export type Tally = number[];

const FIRST_BUCKET = STATUS_CLASSES.length;
const SUM = FIRST_BUCKET + DEFAULT_BUCKETS.length + 1;
const LENGTH = SUM + 1;

export function emptyTally(): Tally {
  return new Array<number>(LENGTH).fill(0);
}

/** Counts one request of `status` that took `seconds`. */
export function observe(tally: Tally, status: number, seconds: number): void {
  tally[statusClassIndex(status)] += 1;
  tally[FIRST_BUCKET + bucketIndex(seconds)] += 1;
  tally[SUM] += seconds;
}

/** Adds a published tally (a JS array, or the Go slice it became) into `into`. */
export function addTally(into: Tally, published: ArrayLike<unknown>): void {
  for (let i = 0; i < LENGTH; i++) into[i] += Number(published[i] ?? 0) || 0;
}

/** Requests by status class, for the classes that have any. */
export function requestsByClass(tally: Tally): Array<[string, number]> {
  return STATUS_CLASSES.map((name, i): [string, number] => [name, tally[i]]).filter(([, count]) => count > 0);
}

/** Observations per bucket, not cumulative; the last is +Inf only. */
export function bucketCounts(tally: Tally): number[] {
  return tally.slice(FIRST_BUCKET, SUM);
}

export function sumOfSeconds(tally: Tally): number {
  return tally[SUM];
}

/** A series' key: its labels as a JSON array (a route pattern may contain any character). */
export function seriesKey(route: string, method: string): string {
  return JSON.stringify([route, method]);
}

export function seriesLabels(key: string): [route: string, method: string] {
  return JSON.parse(key) as [string, string];
}

/** Adds `published` into the series `key` of `totals`. */
export function addToTotals(totals: Map<string, Tally>, key: string, published: ArrayLike<unknown>): void {
  let total = totals.get(key);
  if (!total) {
    total = emptyTally();
    totals.set(key, total);
  }
  addTally(total, published);
}
