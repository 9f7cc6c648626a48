// Request metrics (spec 4.3): platform_http_requests_total{route,method,status} and the histogram
// platform_http_request_duration_seconds{route,method}. Pure: which requests count and under which labels,
// and the buckets. A series' counts are a tally (tally.ts), kept by counters.ts, rendered by http-families.ts.
import { SIDECAR_ROUTE_PREFIX } from "../../../common/sidecar/routes";

/** Prometheus client libraries' default buckets (seconds). */
export const DEFAULT_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The sidecar's routes into PocketBase (POST /api/platform/...): its traffic, not service traffic. */
const UNCOUNTED_PATTERN_PREFIX = `POST ${SIDECAR_ROUTE_PREFIX}`;

/** Methods kept as they are; any other method becomes "other", so a client cannot mint label values. */
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

export function countsRequest(pattern: string): boolean {
  return !pattern.startsWith(UNCOUNTED_PATTERN_PREFIX);
}

/**
 * Fallbacks rather than routes: PocketBase's static file server ("/{path...}", the console's page for every
 * unknown path), the 404 of unknown API paths ("/api/{path...}", main.pb.ts) and the pattern a request gets
 * when its path exists under another method ("/").
 */
const FALLBACK_PATTERNS = new Set(["", "/", "/{path...}", "/api/{path...}"]);

/** The matched pattern without its method ("GET /api/x/{id}" → "/api/x/{id}"); "other" when no route matched (rule 2). */
export function routeLabel(pattern: string): string {
  const path = pattern.replace(/^\s*[A-Z]+\s+/, "").trim();
  return FALLBACK_PATTERNS.has(path) ? "other" : path;
}

export function methodLabel(method: string): string {
  const upper = method.toUpperCase();
  return KNOWN_METHODS.has(upper) ? upper : "other";
}

/** The status classes of rule 3, "unknown" last (a request that ends with neither a status nor an error). */
export const STATUS_CLASSES = ["1xx", "2xx", "3xx", "4xx", "5xx", "unknown"] as const;

/** The index in STATUS_CLASSES of a status's class. */
export function statusClassIndex(status: number): number {
  return Number.isInteger(status) && status >= 100 && status <= 599 ? Math.floor(status / 100) - 1 : STATUS_CLASSES.length - 1;
}

/**
 * The status PocketBase answers for an error a handler threw: an ApiError (a Go error reaching JS as an
 * object whose `value.status` is the code) keeps its own; PocketBase answers any other error with 400
 * (404 when it is sql.ErrNoRows), so those count as 400; the class is what matters.
 */
export function statusOfThrown(thrown: unknown): number {
  const status = (thrown as { value?: { status?: unknown } } | null | undefined)?.value?.status;
  return typeof status === "number" && status > 0 ? status : 400;
}

/** Index of the first bucket whose bound holds `seconds`; DEFAULT_BUCKETS.length means only +Inf. */
export function bucketIndex(seconds: number): number {
  let index = 0;
  while (index < DEFAULT_BUCKETS.length && seconds > DEFAULT_BUCKETS[index]) index++;
  return index;
}
