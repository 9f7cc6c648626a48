// What one hook VM does with a request it counts. Pure: the two places a count goes are passed in.
//
// Why counts are kept per VM: $app.store() is the only map PocketBase's hook VMs share, and every write to
// it takes its one lock, which every hook VM also takes for reading on each request. Three increments per
// request under that lock cost /api/ready half its throughput and doubled its p99 under 100 clients
// (docs/performance.md "Readiness and metrics"). So each VM tallies its own requests and, after each one,
// publishes the tally of that series into a map of its own, which only it writes and a scrape reads.
//
// Why a VM's first request goes to the shared series instead: when its pool is busy, PocketBase builds a
// one-off VM for one handler and drops it (plugins/jsvm/pool.go). A VM that registered a map of its own on
// its first request would leave one behind per one-off VM, without bound. Only a VM that serves a second
// request is a pooled one, so only pooled VMs register, at most the pool's size.
import { methodLabel, routeLabel } from "./http";
import { emptyTally, observe, seriesKey, type Tally } from "./tally";

export interface CountSinks {
  /** Adds one request to the process's shared tally of a series, atomically. */
  addShared(series: string, status: number, seconds: number): void;
  /** Replaces this VM's published tally of a series with a copy of `tally`. */
  publishOwn(series: string, tally: Tally): void;
}

/** A counter for one VM: count(pattern, method, status, seconds) for each request it serves. */
export function vmCounter(sinks: CountSinks) {
  // By method label, then matched pattern (both bounded, whatever clients send): the route label and the
  // series key are worked out once per VM, and a request builds no string to find its series.
  const byMethod = new Map<string, Map<string, { key: string; tally: Tally }>>();
  let counted = 0;
  return (pattern: string, method: string, status: number, seconds: number): void => {
    const label = methodLabel(method);
    let byPattern = byMethod.get(label);
    if (!byPattern) {
      byPattern = new Map();
      byMethod.set(label, byPattern);
    }
    let mine = byPattern.get(pattern);
    if (!mine) {
      mine = { key: seriesKey(routeLabel(pattern), label), tally: emptyTally() };
      byPattern.set(pattern, mine);
    }
    counted += 1;
    if (counted === 1) {
      sinks.addShared(mine.key, status, seconds);
      return;
    }
    observe(mine.tally, status, seconds);
    sinks.publishOwn(mine.key, mine.tally);
  };
}
