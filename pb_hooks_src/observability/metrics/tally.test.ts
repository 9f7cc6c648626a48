import { describe, expect, it } from "vitest";
import { DEFAULT_BUCKETS } from "./http";
import { addTally, addToTotals, bucketCounts, emptyTally, observe, requestsByClass, seriesKey, seriesLabels, sumOfSeconds, type Tally } from "./tally";

describe("tally", () => {
  it("counts a request by its status class and its bucket, and adds its seconds", () => {
    const tally = emptyTally();
    observe(tally, 200, 0.004);
    observe(tally, 204, 0.02);
    observe(tally, 503, 11);
    observe(tally, 0, 0.005);
    expect(requestsByClass(tally)).toEqual([["2xx", 2], ["5xx", 1], ["unknown", 1]]);
    const buckets = bucketCounts(tally);
    expect(buckets).toHaveLength(DEFAULT_BUCKETS.length + 1);
    expect(buckets[0]).toBe(2);
    expect(buckets[2]).toBe(1);
    expect(buckets[DEFAULT_BUCKETS.length]).toBe(1);
    expect(sumOfSeconds(tally)).toBeCloseTo(11.029, 9);
  });

  it("adds published tallies, whatever array-like they come back as", () => {
    const one = emptyTally();
    observe(one, 200, 0.001);
    const published: ArrayLike<unknown> = { length: one.length, ...Object.fromEntries(one.map((v, i) => [i, v])) };
    const total: Tally = emptyTally();
    addTally(total, published);
    addTally(total, one);
    expect(requestsByClass(total)).toEqual([["2xx", 2]]);
    expect(sumOfSeconds(total)).toBeCloseTo(0.002, 12);
  });

  it("sums series by key across sources", () => {
    const a = emptyTally();
    observe(a, 200, 0.001);
    const b = emptyTally();
    observe(b, 404, 0.001);
    const totals = new Map<string, Tally>();
    addToTotals(totals, seriesKey("/api/x", "GET"), a);
    addToTotals(totals, seriesKey("/api/x", "GET"), b);
    addToTotals(totals, seriesKey("/api/y", "GET"), a);
    expect([...totals.keys()].map(seriesLabels)).toEqual([["/api/x", "GET"], ["/api/y", "GET"]]);
    expect(requestsByClass(totals.get(seriesKey("/api/x", "GET"))!)).toEqual([["2xx", 1], ["4xx", 1]]);
    expect(a).toEqual((() => { const t = emptyTally(); observe(t, 200, 0.001); return t; })());
  });
});
