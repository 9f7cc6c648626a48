// Renders the request families of spec 4.3 from the process's tallies (series key → tally). Pure.
import type { MetricFamily, Sample } from "./exposition";
import { DEFAULT_BUCKETS } from "./http";
import { bucketCounts, requestsByClass, seriesLabels, sumOfSeconds, type Tally } from "./tally";

/**
 * The histogram's count is the sum of its buckets, so _count and the +Inf bucket always agree even while
 * requests are being recorded.
 */
export function httpFamilies(totals: ReadonlyMap<string, Tally>): MetricFamily[] {
  const series = [...totals].map(([key, tally]) => ({ labels: seriesLabels(key), tally })).sort((a, b) => compareLabels(a.labels, b.labels));
  const requestSamples: Sample[] = [];
  const durationSamples: Sample[] = [];
  for (const { labels: [route, method], tally } of series) {
    for (const [status, count] of requestsByClass(tally)) {
      requestSamples.push({ labels: [["route", route], ["method", method], ["status", status]], value: count });
    }
    const labels: Array<[string, string]> = [["route", route], ["method", method]];
    const buckets = bucketCounts(tally);
    let cumulative = 0;
    DEFAULT_BUCKETS.forEach((bound, i) => {
      cumulative += buckets[i];
      durationSamples.push({ suffix: "_bucket", labels: [...labels, ["le", String(bound)]], value: cumulative });
    });
    cumulative += buckets[DEFAULT_BUCKETS.length];
    durationSamples.push({ suffix: "_bucket", labels: [...labels, ["le", "+Inf"]], value: cumulative });
    durationSamples.push({ suffix: "_sum", labels, value: sumOfSeconds(tally) });
    durationSamples.push({ suffix: "_count", labels, value: cumulative });
  }
  return [
    {
      name: "platform_http_requests_total",
      type: "counter",
      help: "Requests served, by matched route pattern, method and status class.",
      samples: requestSamples,
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
