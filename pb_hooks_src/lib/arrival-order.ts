/// <reference path="../../build/types/types.d.ts" />
// Writers admitted to the write connection in the order they arrive. PocketBase writes through one
// connection (SQLite has one writer), and Go's database/sql hands a released connection to a random
// waiter (sql.go, connRequests.TakeRandom): with n writers waiting, a writer's wait is geometric, its mean n
// turns and its 99th percentile ~4.6 n turns. A route that many clients call at once takes a ticket first
// and waits for its turn, so at most one of its requests waits at the connection, and the others in turn.
// goja has no primitive to block on, so the wait is a sleep between looks at the counter: SLEEP_MS for
// the next in line, longer further back (a look costs a hook VM a wake-up; 20 waiters looking every
// millisecond took a visible share of two cores).

/** What the queue needs of $app.store(). */
export interface QueueStore {
  get(key: string): unknown;
  setFunc(key: string, update: (old: unknown) => unknown): void;
}

export const SLEEP_MS = 1;
/**
 * Tickets let through at once: the one holding the connection and the next, already waiting at it, so the
 * connection passes on without the sleep's delay; with two waiting, the random pick costs little.
 */
export const ADMITTED = 2;
/** A turn never waited beyond this: a ticket lost to a crash then delays the others, never stops them. */
export const MAX_WAIT_MS = 10_000;

/**
 * A waiter k turns back sleeps k SLEEP_MS, up to this many: no turn takes less than SLEEP_MS, so it cannot
 * miss its own, and far back it looks seldom: at 50 clients and a turn of ~16 ms, a creation looks ~72 times
 * with this cap and ~123 with a cap of 8 (docs/performance.md, "Concurrent writers and the hook VM pool").
 */
const MAX_SLEEP_TURNS = 32;

/** How many tickets must be done before this one is let through (0: its turn). */
const waiting = (serving: unknown, ticket: number): number => Math.max(0, ticket - counter(serving) - ADMITTED + 1);

const appStore = (): QueueStore => $app.store() as unknown as QueueStore;
const counter = (value: unknown): number => (typeof value === "number" ? value : 0);

export function inArrivalOrder<T>(
  name: string,
  work: () => T,
  store: QueueStore = appStore(),
  pause: (ms: number) => void = sleep,
  now: () => number = Date.now,
): T {
  const nextKey = `platform.arrivalOrder.${name}.next`;
  const servingKey = `platform.arrivalOrder.${name}.serving`;
  let ticket = 0;
  store.setFunc(nextKey, (old) => {
    ticket = counter(old);
    return ticket + 1;
  });
  const deadline = now() + MAX_WAIT_MS;
  for (let ahead = waiting(store.get(servingKey), ticket); ahead > 0 && now() < deadline; ahead = waiting(store.get(servingKey), ticket)) {
    pause(Math.min(ahead, MAX_SLEEP_TURNS) * SLEEP_MS);
  }
  try {
    return work();
  } finally {
    // Every ticket up to this one is done or skipped: a ticket lost to a crash holds nobody up past here.
    store.setFunc(servingKey, (old) => Math.max(counter(old), ticket + 1));
  }
}
