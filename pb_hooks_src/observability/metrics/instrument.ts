/// <reference path="../../../build/types/types.d.ts" />
// The request counting middleware (spec 4.3 platform_http_*), run for every request. Bundled into the small
// lib/serving.js (scripts/build-hooks.mjs) so that a hook VM created under load compiles little.
import { recordRequest } from "./counters";
import { countsRequest, methodLabel, routeLabel, statusClass, statusOfThrown } from "./http";

/**
 * Global middleware: counts the request by route pattern, method and status class, and times `answer`
 * (the rest of the chain, or the middleware's own answer). An error from it is counted with the status
 * PocketBase will answer and rethrown unchanged.
 */
export function instrument(e: core.RequestEvent, answer: () => void): void {
  const pattern = e.request?.pattern ?? "";
  if (!countsRequest(pattern)) {
    answer();
    return;
  }
  // Go's clock through DateTime: Date.now() in goja has millisecond resolution, too coarse for 5 ms buckets.
  const started = new DateTime().time();
  const record = (status: number) =>
    recordRequest(routeLabel(pattern), methodLabel(e.request?.method ?? ""), statusClass(status), Number(new DateTime().time().sub(started)) / 1e9);
  try {
    answer();
  } catch (err) {
    record(statusOfThrown(err));
    throw err;
  }
  record(e.status());
}

