import { describe, expect, it } from "vitest";
import { ADMITTED, MAX_WAIT_MS, SLEEP_MS, inArrivalOrder, type QueueStore } from "./arrival-order";

function memoryStore(initial: Record<string, number> = {}): QueueStore & { values: Map<string, unknown> } {
  const values = new Map<string, unknown>(Object.entries(initial));
  return {
    values,
    get: (key) => values.get(key),
    setFunc: (key, update) => void values.set(key, update(values.get(key))),
  };
}

const NEXT = "platform.arrivalOrder.q.next";
const SERVING = "platform.arrivalOrder.q.serving";

describe("inArrivalOrder", () => {
  it("lets the first tickets through at once and counts each done", () => {
    const store = memoryStore();
    const pauses: number[] = [];
    const seen: number[] = [];
    // Nested calls stand for requests in flight at once: the first ADMITTED need no wait.
    inArrivalOrder("q", () => inArrivalOrder("q", () => seen.push(2), store, (ms) => pauses.push(ms)), store, (ms) => pauses.push(ms));
    expect(ADMITTED).toBe(2);
    expect(seen).toEqual([2]);
    expect(pauses).toEqual([]);
    expect(store.values.get(NEXT)).toBe(2);
    expect(store.values.get(SERVING)).toBe(2);
  });

  it("waits for the tickets ahead, looking less often the further back it stands", () => {
    // Ticket 5 arrives while ticket 0 is served: tickets 0-3 must be done before it is let through.
    const store = memoryStore({ [NEXT]: 5, [SERVING]: 0 });
    const pauses: number[] = [];
    let ran = false;
    const result = inArrivalOrder(
      "q",
      () => {
        ran = true;
        return "written";
      },
      store,
      (ms) => {
        pauses.push(ms);
        store.setFunc(SERVING, (old) => (old as number) + 1); // one ticket ahead finishes per look
      },
    );
    expect(result).toBe("written");
    expect(ran).toBe(true);
    expect(pauses).toEqual([4, 3, 2, 1].map((turns) => turns * SLEEP_MS));
    expect(store.values.get(SERVING)).toBe(6);
  });

  it("sleeps one turn per ticket ahead, at most 32, between looks", () => {
    const store = memoryStore({ [NEXT]: 60, [SERVING]: 0 });
    const pauses: number[] = [];
    inArrivalOrder("q", () => undefined, store, (ms) => {
      pauses.push(ms);
      store.setFunc(SERVING, (old) => (old as number) + 1);
    });
    expect(Math.max(...pauses)).toBe(32 * SLEEP_MS);
    expect(pauses.slice(-33)).toEqual([32, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1].map((turns) => turns * SLEEP_MS));
    expect(pauses.at(-1)).toBe(SLEEP_MS);
  });

  it("goes ahead after MAX_WAIT_MS when a ticket ahead is never done, and lets the queue move past it", () => {
    const store = memoryStore({ [NEXT]: 3, [SERVING]: 0 });
    let clock = 0;
    let ran = false;
    inArrivalOrder("q", () => (ran = true), store, (ms) => (clock += ms), () => clock);
    expect(ran).toBe(true);
    expect(clock).toBeGreaterThanOrEqual(MAX_WAIT_MS);
    expect(store.values.get(SERVING)).toBe(4);
  });

  it("counts a ticket done when its work throws, and rethrows", () => {
    const store = memoryStore();
    expect(() =>
      inArrivalOrder("q", () => {
        throw new Error("refused");
      }, store, () => undefined),
    ).toThrow("refused");
    expect(store.values.get(SERVING)).toBe(1);
  });

  it("keeps queues of different names apart", () => {
    const store = memoryStore({ [NEXT]: 9, [SERVING]: 0 });
    const pauses: number[] = [];
    inArrivalOrder("other", () => undefined, store, (ms) => pauses.push(ms));
    expect(store.values.get(NEXT)).toBe(9);
    expect(pauses).toEqual([]);
  });
});
