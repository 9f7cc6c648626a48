import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { STARTED_PATH } from "../common/sidecar/routes";
import type { Post, PostAnswer } from "./prober";
import { STARTED_RETRY_MS, announceStarted } from "./started";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** A PocketBase that refuses connections for the first `refusals` calls, then answers `answer`. */
function pocketBase(refusals: number, answer: PostAnswer) {
  const calls: { path: string; at: number }[] = [];
  const post: Post = (path) => {
    calls.push({ path, at: Date.now() });
    return calls.length <= refusals ? Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:8090")) : Promise.resolve(answer);
  };
  return { post, calls };
}

describe("announceStarted", () => {
  it("posts once and resolves when PocketBase answers at once", async () => {
    const pb = pocketBase(0, { status: 200, body: "{}" });
    await announceStarted(pb.post);
    expect(pb.calls.map((c) => c.path)).toEqual([STARTED_PATH]);
  });

  it("repeats every STARTED_RETRY_MS while PocketBase does not listen, then resolves on its answer", async () => {
    const pb = pocketBase(3, { status: 200, body: "{}" });
    let done = false;
    void announceStarted(pb.post).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(2 * STARTED_RETRY_MS);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(STARTED_RETRY_MS);
    expect(done).toBe(true);
    const t0 = pb.calls[0].at;
    expect(pb.calls.map((c) => c.at - t0)).toEqual([0, STARTED_RETRY_MS, 2 * STARTED_RETRY_MS, 3 * STARTED_RETRY_MS]);
  });

  it("takes an error status as an answer: PocketBase listens, and its start work reports its own failure", async () => {
    const pb = pocketBase(0, { status: 500, body: '{"message":"x"}' });
    await announceStarted(pb.post);
    expect(pb.calls).toHaveLength(1);
  });

  it("stops repeating once the sidecar is on its way out", async () => {
    const pb = pocketBase(Number.POSITIVE_INFINITY, { status: 200, body: "{}" });
    let stopped = false;
    const announced = announceStarted(pb.post, () => stopped);
    await vi.advanceTimersByTimeAsync(STARTED_RETRY_MS);
    stopped = true;
    await vi.advanceTimersByTimeAsync(STARTED_RETRY_MS);
    await announced;
    expect(pb.calls).toHaveLength(2);
  });
});
