/// <reference path="../build/types/types.d.ts" />
// The one global middleware. A JS middleware holds its hook VM until the whole request has been answered,
// so every global middleware costs a pooled VM per request in flight; past the pool PocketBase builds a
// one-off VM per handler call (docs/performance.md "Concurrent writers and the hook VM pool"). The console's
// headers, a tenant list's total and the request counting therefore share one handler.
import { addConsoleHeaders } from "./console-page/middleware";
import { instrument } from "./observability/metrics/instrument";
import { takeOverListTotal } from "./tenancy/list-totals";

/** With metrics on: the console's headers, a counted list's total, then the request counted and timed around the rest. */
export function serveCounted(e: core.RequestEvent): void {
  addConsoleHeaders(e);
  takeOverListTotal(e);
  instrument(e);
}

/** With metrics.enabled false: the console's headers and a counted list's total only. */
export function serveUncounted(e: core.RequestEvent): void {
  addConsoleHeaders(e);
  takeOverListTotal(e);
  e.next();
}
