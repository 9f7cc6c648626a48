/// <reference path="../../../build/types/types.d.ts" />
// The request counters in goja (spec 4.3 platform_http_*): each hook VM counts its own requests
// (vm-counter.ts says why), publishing them into a map only it writes; a scrape adds up every VM's map
// and the shared series. Bundled into the small lib/serving.js with the middleware.
import { sharedStore } from "../../lib/app-store";
import { addTally, addToTotals, emptyTally, observe, type Tally } from "./tally";
import { vmCounter } from "./vm-counter";

/** Shared tallies, by series key: a VM's first request (and every one-off VM's only one). */
const SHARED_PREFIX = "platform.metrics.http.series ";
/** Each pooled VM's own map of tallies, by a random id of the VM. */
const VM_PREFIX = "platform.metrics.http.vm ";

// A Record that is never saved serves as the VM's map: its fields live in a store of its own (a
// store.Store, core/record_model.go), so this VM's writes take that store's lock, which no other VM writes,
// and a scrape reads it under the same lock. Registered under VM_PREFIX on the VM's second request.
let own: core.Record | undefined;

function ownTallies(): core.Record {
  if (!own) {
    own = new Record(new Collection());
    sharedStore().set(VM_PREFIX + $security.randomString(16), own);
  }
  return own;
}

/** Counts one request of this VM: recordRequest(pattern, method, status, seconds). */
export const recordRequest = vmCounter({
  addShared: (series, status, seconds) =>
    sharedStore().setFunc(SHARED_PREFIX + series, (old: unknown) => {
      const next = emptyTally();
      if (old) addTally(next, old as ArrayLike<unknown>);
      observe(next, status, seconds);
      return next;
    }),
  // Passing the array into Go exports a copy of it ([]any): what a scrape reads never changes under it.
  publishOwn: (series, tally) => ownTallies().setRaw(series, tally),
});

/** Every series' totals at this moment: the shared tallies plus every VM's own. */
export function httpTotals(): Map<string, Tally> {
  const totals = new Map<string, Tally>();
  const all = sharedStore().getAll() as Record<string, unknown>;
  for (const key of Object.keys(all)) {
    if (key.startsWith(SHARED_PREFIX)) {
      addToTotals(totals, key.slice(SHARED_PREFIX.length), all[key] as ArrayLike<unknown>);
    } else if (key.startsWith(VM_PREFIX)) {
      const tallies = (all[key] as core.Record).customData() as Record<string, unknown>;
      for (const series of Object.keys(tallies)) addToTotals(totals, series, tallies[series] as ArrayLike<unknown>);
    }
  }
  return totals;
}
