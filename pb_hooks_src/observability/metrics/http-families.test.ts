import { describe, expect, it } from "vitest";
import { renderFamily } from "./exposition";
import { httpFamilies } from "./http-families";
import { emptyTally, observe, seriesKey, type Tally } from "./tally";

function tallyOf(observations: Array<[status: number, seconds: number]>): Tally {
  const tally = emptyTally();
  for (const [status, seconds] of observations) observe(tally, status, seconds);
  return tally;
}

describe("httpFamilies", () => {
  it("renders counters per route, method and status, and cumulative histograms whose count is the +Inf bucket", () => {
    const route = "/api/collections/{collection}/records";
    const totals = new Map([
      [seriesKey("/api/health", "GET"), tallyOf([[200, 0.001], [200, 0.001]])],
      [seriesKey(route, "GET"), tallyOf([[200, 0.00390625], [200, 0.00390625], [404, 0.03125], [200, 12.4609375]])],
    ]);
    const [requests, durations] = httpFamilies(totals).map(renderFamily);
    expect(requests).toEqual([
      "# HELP platform_http_requests_total Requests served, by matched route pattern, method and status class.",
      "# TYPE platform_http_requests_total counter",
      'platform_http_requests_total{route="/api/collections/{collection}/records",method="GET",status="2xx"} 3',
      'platform_http_requests_total{route="/api/collections/{collection}/records",method="GET",status="4xx"} 1',
      'platform_http_requests_total{route="/api/health",method="GET",status="2xx"} 2',
    ]);
    const records = durations.filter((l) => l.includes("/api/collections/"));
    expect(records).toEqual([
      ...["0.005", "0.01", "0.025"].map((le) => `platform_http_request_duration_seconds_bucket{route="${route}",method="GET",le="${le}"} 2`),
      ...["0.05", "0.1", "0.25", "0.5", "1", "2.5", "5", "10"].map((le) => `platform_http_request_duration_seconds_bucket{route="${route}",method="GET",le="${le}"} 3`),
      `platform_http_request_duration_seconds_bucket{route="${route}",method="GET",le="+Inf"} 4`,
      `platform_http_request_duration_seconds_sum{route="${route}",method="GET"} 12.5`,
      `platform_http_request_duration_seconds_count{route="${route}",method="GET"} 4`,
    ]);
    expect(durations[1]).toBe("# TYPE platform_http_request_duration_seconds histogram");
  });

  it("names a request that ended with neither a status nor an error unknown", () => {
    const [requests] = httpFamilies(new Map([[seriesKey("other", "GET"), tallyOf([[0, 0.001]])]])).map(renderFamily);
    expect(requests[2]).toBe('platform_http_requests_total{route="other",method="GET",status="unknown"} 1');
  });

  it("keeps labels that contain the key's separators intact", () => {
    const [requests] = httpFamilies(new Map([[seriesKey('/odd "route" ]', "GET"), tallyOf([[200, 0]])]])).map(renderFamily);
    expect(requests[2]).toBe('platform_http_requests_total{route="/odd \\"route\\" ]",method="GET",status="2xx"} 1');
  });

  it("renders no series before the first request", () => {
    expect(httpFamilies(new Map()).flatMap(renderFamily)).toEqual([]);
  });
});
