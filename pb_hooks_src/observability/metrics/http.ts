// Request metrics (spec 4.3): platform_http_requests_total{route,method,status} and the histogram
// platform_http_request_duration_seconds{route,method}. Pure: label rules, the store keys the counters live
// under, and rendering the store's contents. The counters themselves are kept by counters.ts.
import { SIDECAR_ROUTE_PREFIX } from "../../lib/sidecar-routes";
import type { MetricFamily, Sample } from "./exposition";

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

/** The status class (rule 3): "2xx", "4xx", "5xx" (and "1xx"/"3xx" should they occur); "unknown" for no status. */
export function statusClass(status: number): string {
  if (!Number.isInteger(status) || status < 100 || status > 599) return "unknown";
  return `${Math.floor(status / 100)}xx`;
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
  const index = DEFAULT_BUCKETS.findIndex((bound) => seconds <= bound);
  return index < 0 ? DEFAULT_BUCKETS.length : index;
}

// Store keys: a prefix, then the labels as a JSON array (route patterns may contain any character).
export const KEY_PREFIX = "platform.metrics.http.";
const REQUESTS = `${KEY_PREFIX}requests `;
const BUCKET = `${KEY_PREFIX}bucket `;
const SUM = `${KEY_PREFIX}sum `;

/** Counter of requests of one route, method and status class. */
export function requestsKey(route: string, method: string, status: string): string {
  return REQUESTS + JSON.stringify([route, method, status]);
}

/** Observations of one route and method that fell into one bucket (not cumulative; rendering sums them). */
export function bucketKey(route: string, method: string, index: number): string {
  return BUCKET + JSON.stringify([route, method, index]);
}

/** Sum of the observed seconds of one route and method. */
export function sumKey(route: string, method: string): string {
  return SUM + JSON.stringify([route, method]);
}

interface Histogram {
  route: string;
  method: string;
  buckets: number[];
  sum: number;
}

/**
 * Renders the two families from the store's http entries (key → number). The histogram's count is the
 * sum of its buckets, so _count and the +Inf bucket always agree even while requests are being recorded.
 */
export function httpFamilies(entries: ReadonlyArray<readonly [string, number]>): MetricFamily[] {
  const requests: Array<{ labels: [string, string, string]; value: number }> = [];
  const histograms = new Map<string, Histogram>();
  const histogram = (route: string, method: string): Histogram => {
    const id = JSON.stringify([route, method]);
    let h = histograms.get(id);
    if (!h) {
      h = { route, method, buckets: DEFAULT_BUCKETS.map(() => 0).concat(0), sum: 0 };
      histograms.set(id, h);
    }
    return h;
  };
  for (const [key, value] of entries) {
    if (key.startsWith(REQUESTS)) {
      const [route, method, status] = JSON.parse(key.slice(REQUESTS.length)) as [string, string, string];
      requests.push({ labels: [route, method, status], value });
    } else if (key.startsWith(BUCKET)) {
      const [route, method, index] = JSON.parse(key.slice(BUCKET.length)) as [string, string, number];
      const h = histogram(route, method);
      if (index >= 0 && index < h.buckets.length) h.buckets[index] += value;
    } else if (key.startsWith(SUM)) {
      const [route, method] = JSON.parse(key.slice(SUM.length)) as [string, string];
      histogram(route, method).sum += value;
    }
  }
  requests.sort((a, b) => compareLabels(a.labels, b.labels));
  const sortedHistograms = [...histograms.values()].sort((a, b) => compareLabels([a.route, a.method], [b.route, b.method]));

  const durationSamples: Sample[] = [];
  for (const h of sortedHistograms) {
    const labels: Array<[string, string]> = [["route", h.route], ["method", h.method]];
    let cumulative = 0;
    DEFAULT_BUCKETS.forEach((bound, i) => {
      cumulative += h.buckets[i];
      durationSamples.push({ suffix: "_bucket", labels: [...labels, ["le", String(bound)]], value: cumulative });
    });
    cumulative += h.buckets[DEFAULT_BUCKETS.length];
    durationSamples.push({ suffix: "_bucket", labels: [...labels, ["le", "+Inf"]], value: cumulative });
    durationSamples.push({ suffix: "_sum", labels, value: h.sum });
    durationSamples.push({ suffix: "_count", labels, value: cumulative });
  }
  return [
    {
      name: "platform_http_requests_total",
      type: "counter",
      help: "Requests served, by matched route pattern, method and status class.",
      samples: requests.map(({ labels: [route, method, status], value }) => ({ labels: [["route", route], ["method", method], ["status", status]], value })),
    },
    {
      name: "platform_http_request_duration_seconds",
      type: "histogram",
      help: "Request latency in seconds, by matched route pattern and method.",
      samples: durationSamples,
    },
  ];
}

function compareLabels(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}
