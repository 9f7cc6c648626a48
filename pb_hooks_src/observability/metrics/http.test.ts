import { describe, expect, it } from "vitest";
import { renderFamily } from "./exposition";
import { bucketIndex, bucketKey, countsRequest, DEFAULT_BUCKETS, httpFamilies, methodLabel, requestsKey, routeLabel, statusClass, statusOfThrown, sumKey } from "./http";

describe("labels", () => {
  it("uses the matched pattern without its method, and other when nothing matched", () => {
    expect(routeLabel("GET /api/collections/{collection}/records")).toBe("/api/collections/{collection}/records");
    expect(routeLabel("/api/health")).toBe("/api/health");
    expect(routeLabel("")).toBe("other");
    expect(routeLabel("GET ")).toBe("other");
    expect(routeLabel("GET /{path...}")).toBe("other");
    expect(routeLabel("GET /api/{path...}")).toBe("other");
    expect(routeLabel("/")).toBe("other");
  });

  it("keeps standard methods and folds any other into other", () => {
    expect(methodLabel("get")).toBe("GET");
    expect(methodLabel("PATCH")).toBe("PATCH");
    expect(methodLabel("BREW")).toBe("other");
  });

  it("classes statuses, unknown without one", () => {
    expect(statusClass(200)).toBe("2xx");
    expect(statusClass(204)).toBe("2xx");
    expect(statusClass(404)).toBe("4xx");
    expect(statusClass(503)).toBe("5xx");
    expect(statusClass(0)).toBe("unknown");
    expect(statusClass(NaN)).toBe("unknown");
  });

  it("takes a thrown ApiError's status, and 400 for any other thrown error", () => {
    expect(statusOfThrown({ value: { status: 410, message: "gone" } })).toBe(410);
    expect(statusOfThrown(new Error("boom"))).toBe(400);
    expect(statusOfThrown(null)).toBe(400);
    expect(statusOfThrown({ value: { status: "500" } })).toBe(400);
  });

  it("does not count the prober's internal routes", () => {
    expect(countsRequest("POST /api/platform/readiness/checks/{name}")).toBe(false);
    expect(countsRequest("POST /api/platform/readiness/snapshot")).toBe(false);
    expect(countsRequest("GET /api/ready")).toBe(true);
    expect(countsRequest("")).toBe(true);
  });
});

describe("buckets", () => {
  it("uses the default buckets of Prometheus client libraries, bounds inclusive", () => {
    expect(DEFAULT_BUCKETS).toEqual([0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]);
    expect(bucketIndex(0)).toBe(0);
    expect(bucketIndex(0.005)).toBe(0);
    expect(bucketIndex(0.0051)).toBe(1);
    expect(bucketIndex(10)).toBe(10);
    expect(bucketIndex(11)).toBe(11);
  });
});

describe("httpFamilies", () => {
  it("renders counters per route, method and status, and cumulative histograms whose count is the +Inf bucket", () => {
    const route = "/api/collections/{collection}/records";
    const entries: Array<[string, number]> = [
      [requestsKey(route, "GET", "2xx"), 3],
      [requestsKey(route, "GET", "4xx"), 1],
      [requestsKey("/api/health", "GET", "2xx"), 2],
      [bucketKey(route, "GET", 0), 2],
      [bucketKey(route, "GET", 3), 1],
      [bucketKey(route, "GET", 11), 1],
      [sumKey(route, "GET"), 12.5],
      [bucketKey("/api/health", "GET", 0), 2],
      [sumKey("/api/health", "GET"), 0.002],
      ["platform.readiness.snapshot", 7],
    ];
    const [requests, durations] = httpFamilies(entries).map(renderFamily);
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

  it("keeps labels that contain the key separator intact", () => {
    const [requests] = httpFamilies([[requestsKey('/odd "route" ]', "GET", "2xx"), 1]]).map(renderFamily);
    expect(requests[2]).toBe('platform_http_requests_total{route="/odd \\"route\\" ]",method="GET",status="2xx"} 1');
  });

  it("renders no series before the first request", () => {
    expect(httpFamilies([]).flatMap(renderFamily)).toEqual([]);
  });
});
