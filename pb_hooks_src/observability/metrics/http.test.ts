import { describe, expect, it } from "vitest";
import { bucketIndex, countsRequest, DEFAULT_BUCKETS, methodLabel, routeLabel, STATUS_CLASSES, statusClassIndex, statusOfThrown } from "./http";

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
    const statusClass = (status: number) => STATUS_CLASSES[statusClassIndex(status)];
    expect(statusClass(200)).toBe("2xx");
    expect(statusClass(204)).toBe("2xx");
    expect(statusClass(404)).toBe("4xx");
    expect(statusClass(503)).toBe("5xx");
    expect(statusClass(0)).toBe("unknown");
    expect(statusClass(NaN)).toBe("unknown");
    expect(statusClass(99)).toBe("unknown");
    expect(statusClass(600)).toBe("unknown");
    expect(STATUS_CLASSES[statusClassIndex(101)]).toBe("1xx");
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
