/// <reference path="../build/types/types.d.ts" />
// The one global middleware. A JS middleware holds its hook VM until the whole request has been answered,
// so every global middleware costs a pooled VM per request in flight; past the pool PocketBase builds a
// one-off VM per handler call (docs/performance.md "Concurrent writers and the hook VM pool"). The console's
// headers, a tenant list's total and the request counting therefore share one handler, and it answers
// GET /api/ready itself: a probe, which load balancers send all day, then holds one VM instead of two.
import { addConsoleHeaders } from "./console-page/middleware";
import { instrument } from "./observability/metrics/instrument";
import { readyRoute } from "./observability/readiness/ready-route";
import { takeOverListTotal } from "./tenancy/list-totals";

/** The route main.pb.ts registers for the readiness report: registered so that the router matches it. */
const READY_PATTERN = "GET /api/ready";

// PocketBase's activity logger skips a successful request when this key is set on the event, which its
// SkipSuccessActivityLog middleware does (apis/middlewares.go, requestEventKeySkipSuccessActivityLog);
// route middlewares do not run when the middleware answers, so it is set here. e2e/observability/metrics.test.ts proves it.
const SKIP_SUCCESS_ACTIVITY_LOG = "__skipSuccessActivityLogger";

/** With metrics on: the console's headers, a counted list's total, then the request counted and timed around the rest. */
export function serveCounted(e: core.RequestEvent): void {
  // Read once: every step from goja into a Go object costs a call and an allocation.
  const request = e.request;
  const pattern = request?.pattern ?? "";
  const method = request?.method ?? "";
  if (answersReady(e, pattern)) {
    instrument(e, pattern, method, readyRoute);
    return;
  }
  addConsoleHeaders(e);
  takeOverListTotal(e);
  instrument(e, pattern, method, next);
}

/** With metrics.enabled false: the console's headers and a counted list's total only. */
export function serveUncounted(e: core.RequestEvent): void {
  if (answersReady(e, e.request?.pattern ?? "")) {
    readyRoute(e);
    return;
  }
  addConsoleHeaders(e);
  takeOverListTotal(e);
  e.next();
}

function next(e: core.RequestEvent): void {
  e.next();
}

function answersReady(e: core.RequestEvent, pattern: string): boolean {
  if (pattern !== READY_PATTERN) return false;
  e.set(SKIP_SUCCESS_ACTIVITY_LOG, true);
  return true;
}
