/// <reference path="../../../build/types/types.d.ts" />
// The request counting middleware (spec 4.3 platform_http_*), run for every request. Bundled into the small
// lib/serving.js (scripts/build-hooks.mjs) so that a hook VM created under load compiles little.
import { recordRequest } from "./counters";
import { countsRequest, statusOfThrown } from "./http";

/**
 * Global middleware: counts the request by its matched `pattern`, `method` and status class, and times
 * `answer` (the rest of the chain, or the middleware's own answer). An error from it is counted with the
 * status PocketBase will answer and rethrown unchanged.
 */
export function instrument(e: core.RequestEvent, pattern: string, method: string, answer: () => void): void {
  if (!countsRequest(pattern)) {
    answer();
    return;
  }
  // Go's clock through DateTime: Date.now() in goja has millisecond resolution, too coarse for 5 ms buckets.
  const started = new DateTime();
  const record = (status: number) => recordRequest(pattern, method, status, Number(new DateTime().sub(started)) / 1e9);
  try {
    answer();
  } catch (err) {
    record(statusOfThrown(err));
    throw err;
  }
  record(e.status());
}
