/// <reference path="../../../build/types/types.d.ts" />
// The request counters, kept in $app.store(): the one map every hook VM of the process shares, so all VMs
// count into the same series. setFunc updates a key under the store's lock, which makes each increment
// atomic; a request costs three of them (its status counter, its bucket, its sum).
import { bucketIndex, bucketKey, KEY_PREFIX, requestsKey, sumKey } from "./http";

// The store holds values of any type; the keys under KEY_PREFIX hold numbers.
const store = () => $app.store() as store.Store<string, unknown>;

const add = (amount: number) => (old: unknown): unknown => (typeof old === "number" ? old : 0) + amount;

export function recordRequest(route: string, method: string, status: string, seconds: number): void {
  const s = store();
  s.setFunc(requestsKey(route, method, status), add(1));
  s.setFunc(bucketKey(route, method, bucketIndex(seconds)), add(1));
  s.setFunc(sumKey(route, method), add(seconds));
}

/** Every counter entry (key → number) at this moment. */
export function httpEntries(): Array<[string, number]> {
  const all = store().getAll() as Record<string, unknown>;
  const entries: Array<[string, number]> = [];
  for (const key of Object.keys(all)) {
    const value = all[key];
    if (key.startsWith(KEY_PREFIX) && typeof value === "number") entries.push([key, value]);
  }
  return entries;
}
