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
import { writeRefusal } from "./replication/lease";
import { SIDECAR_ROUTE_PREFIX } from "../common/sidecar/routes";

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
  instrument(e, pattern, method, nextUnlessRefused);
}

/** With metrics.enabled false: the console's headers and a counted list's total only. */
export function serveUncounted(e: core.RequestEvent): void {
  if (answersReady(e, e.request?.pattern ?? "")) {
    readyRoute(e);
    return;
  }
  addConsoleHeaders(e);
  takeOverListTotal(e);
  nextUnlessRefused(e);
}

const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/**
 * Let through without the lease: signing in with a password and refreshing a session (an operator can
 * still look at a control plane that is not the primary), and the realtime subscriptions, which read.
 * OAuth2 and one-time-password sign-ins create records, so they wait for the lease like any write.
 */
const READS_BY_POST = /^\/api\/(collections\/[^/]+\/(auth-with-password|auth-refresh)|realtime)$/;

/**
 * A write to the API while this control plane does not hold the write lease (replication into the bus,
 * replication/lease.ts) is answered 503 with the reason, and goes no further; the sidecar's own routes pass.
 */
function nextUnlessRefused(e: core.RequestEvent): void {
  const request = e.request;
  if (request && !READ_METHODS.has(request.method)) {
    const path = request.url?.path ?? "";
    if (path.startsWith("/api/") && !path.startsWith(SIDECAR_ROUTE_PREFIX) && !READS_BY_POST.test(path)) {
      const refusal = writeRefusal(e.app);
      if (refusal) {
        e.json(503, { status: 503, message: refusal, data: {} });
        return;
      }
    }
  }
  e.next();
}

function answersReady(e: core.RequestEvent, pattern: string): boolean {
  if (pattern !== READY_PATTERN) return false;
  e.set(SKIP_SUCCESS_ACTIVITY_LOG, true);
  return true;
}
