import { describe, expect, it } from "vitest";
import { addTally, addToTotals, emptyTally, observe, requestsByClass, seriesKey, type Tally } from "./tally";
import { vmCounter, type CountSinks } from "./vm-counter";

/** One VM's sinks as counters.ts builds them: a new shared tally per update, the VM's own map holding copies. */
function sinks(shared = new Map<string, Tally>()) {
  const own = new Map<string, Tally>();
  const published: string[] = [];
  const countSinks: CountSinks = {
    addShared: (series, status, seconds) => {
      const next = emptyTally();
      const old = shared.get(series);
      if (old) addTally(next, old);
      observe(next, status, seconds);
      shared.set(series, next);
    },
    publishOwn: (series, tally) => {
      own.set(series, [...tally]);
      published.push(series);
    },
  };
  return { shared, own, published, countSinks };
}

function totalsOf(...maps: Array<Map<string, Tally>>): Map<string, Tally> {
  const totals = new Map<string, Tally>();
  for (const map of maps) for (const [series, tally] of map) addToTotals(totals, series, tally);
  return totals;
}

describe("vmCounter", () => {
  it("counts a VM's first request in the shared tally, so a one-off VM registers nothing of its own", () => {
    const { shared, own, countSinks } = sinks();
    vmCounter(countSinks)("GET /api/health", "GET", 200, 0.001);
    expect(requestsByClass(shared.get(seriesKey("/api/health", "GET"))!)).toEqual([["2xx", 1]]);
    expect(own.size).toBe(0);
  });

  it("publishes the VM's whole tally of a series after each later request", () => {
    const { shared, own, published, countSinks } = sinks();
    const count = vmCounter(countSinks);
    count("GET /api/health", "GET", 200, 0.001);
    count("GET /api/health", "GET", 200, 0.001);
    count("GET /api/health", "GET", 503, 0.001);
    count("GET /api/x/{id}", "GET", 404, 0.001);
    expect(published).toEqual([seriesKey("/api/health", "GET"), seriesKey("/api/health", "GET"), seriesKey("/api/x/{id}", "GET")]);
    expect(requestsByClass(own.get(seriesKey("/api/health", "GET"))!)).toEqual([["2xx", 1], ["5xx", 1]]);
    const totals = totalsOf(shared, own);
    expect(requestsByClass(totals.get(seriesKey("/api/health", "GET"))!)).toEqual([["2xx", 2], ["5xx", 1]]);
    expect(requestsByClass(totals.get(seriesKey("/api/x/{id}", "GET"))!)).toEqual([["4xx", 1]]);
  });

  it("adds up to every request across many VMs, each counted once", () => {
    const shared = new Map<string, Tally>();
    const vms = Array.from({ length: 7 }, () => sinks(shared));
    const counters = vms.map((vm) => vmCounter(vm.countSinks));
    for (let i = 0; i < 500; i++) counters[(i * 13) % counters.length]("GET /api/ready", "GET", i % 10 === 0 ? 503 : 200, 0.002);
    const totals = totalsOf(shared, ...vms.map((vm) => vm.own));
    expect(requestsByClass(totals.get(seriesKey("/api/ready", "GET"))!)).toEqual([["2xx", 450], ["5xx", 50]]);
    expect(requestsByClass(shared.get(seriesKey("/api/ready", "GET"))!).reduce((n, [, c]) => n + c, 0)).toBe(7);
  });

  it("labels unmatched routes other and folds unknown methods, so clients cannot grow a VM's series", () => {
    const { shared, own, countSinks } = sinks();
    const count = vmCounter(countSinks);
    count("/{path...}", "GET", 404, 0.001);
    for (let i = 0; i < 50; i++) count("/{path...}", `BREW${i}`, 404, 0.001);
    expect([...totalsOf(shared, own).keys()]).toEqual([seriesKey("other", "GET"), seriesKey("other", "other")]);
    expect(own.size).toBe(1);
  });
});
