/// <reference path="../../../build/types/types.d.ts" />
// The request counting middleware (spec 4.3 platform_http_*), run for every request. Bundled into the small
// lib/serving.js (scripts/build-hooks.mjs) so that a hook VM created under load compiles little.
import { recordRequest } from "./counters";
import { countsRequest, statusOfThrown } from "./http";

/**
 * Global middleware: counts the request by its matched `pattern`, `method` and status class, and times
 * `answer(e)` (the rest of the chain, or the middleware's own answer). An error from it is counted with the
 * status PocketBase will answer and rethrown unchanged. `answer` takes the event rather than closing over
 * it, so that a request allocates no function, and returns the status it wrote when it knows it, which
 * saves asking Go: every call into Go allocates, and goja's garbage is a probe's largest cost
 * (docs/performance.md "Readiness and metrics").
 */
export function instrument(
  e: core.RequestEvent,
  pattern: string,
  method: string,
  answer: (e: core.RequestEvent) => number | void,
): void {
  if (!countsRequest(pattern)) {
    answer(e);
    return;
  }
  const started = new DateTime();
  let written: number | void;
  try {
    written = answer(e);
  } catch (err) {
    recordRequest(pattern, method, statusOfThrown(err), secondsSince(started));
    throw err;
  }
  recordRequest(pattern, method, written ?? e.status(), secondsSince(started));
}

// Go's clock through DateTime: Date.now() in goja has millisecond resolution, too coarse for 5 ms buckets.
function secondsSince(started: DateTime): number {
  return Number(new DateTime().sub(started)) / 1e9;
}
