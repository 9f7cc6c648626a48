import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CheckResult } from "../common/readiness/report";
import { CHECK_PATH, FIRST_PROBE_RETRY_MS, Prober, SNAPSHOT_PATH, readResult, type Post, type PostAnswer } from "./prober";
import type { ProbeSettings } from "../common/sidecar/protocol";

const SETTINGS: ProbeSettings = {
  url: "http://127.0.0.1:8090",
  checks: ["database", "schema", "bus_reachable"],
  intervalMs: 10_000,
  timeoutMs: 1_000,
};

/** A check request the fake PocketBase has received, answered when the test says so. */
interface CheckCall {
  name: string;
  at: number;
  answer(answer: PostAnswer): void;
  fail(error: Error): void;
}

interface Snapshot {
  results: CheckResult[];
  tookMs: number;
  at: number;
}

const okAnswer = (name: string, state: CheckResult["state"] = "ok"): PostAnswer => ({ status: 200, body: JSON.stringify({ name, state, tookMs: 3 }) });

/**
 * A fake PocketBase. Check requests stay pending until answered, unless `autoAnswerMs` gives a delay after
 * which each is answered ok. The snapshot POST answers at once with `snapshotStatus` (or rejects when null).
 */
function fakePocketBase(options: { autoAnswerMs?: number } = {}) {
  const calls: CheckCall[] = [];
  const snapshots: Snapshot[] = [];
  const state = { snapshotStatus: 200 as number | null };
  const post: Post = (path, body) => {
    if (path === SNAPSHOT_PATH) {
      snapshots.push({ ...(body as Omit<Snapshot, "at">), at: Date.now() });
      if (state.snapshotStatus === null) return Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:8090"));
      return Promise.resolve({ status: state.snapshotStatus, body: "{}" });
    }
    expect(path.startsWith(CHECK_PATH)).toBe(true);
    const name = decodeURIComponent(path.slice(CHECK_PATH.length));
    return new Promise<PostAnswer>((resolve, reject) => {
      calls.push({ name, at: Date.now(), answer: resolve, fail: reject });
      if (options.autoAnswerMs !== undefined) setTimeout(() => resolve(okAnswer(name)), options.autoAnswerMs);
    });
  };
  const callsOf = (name: string) => calls.filter((c) => c.name === name);
  return { post, calls, callsOf, snapshots, state };
}

function prober(pb: ReturnType<typeof fakePocketBase>, settings: ProbeSettings = SETTINGS): Prober {
  return new Prober(settings, { post: pb.post, now: () => Date.now() });
}

function resultOf(snapshot: Snapshot, name: string): CheckResult {
  const result = snapshot.results.find((r) => r.name === name);
  if (!result) throw new Error(`no result for ${name}`);
  return result;
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date("2026-01-01T00:00:00Z"));
});

afterEach(() => {
  vi.useRealTimers();
});

describe("Prober.probe", () => {
  it("sends every check before any of them answers", () => {
    const pb = fakePocketBase();
    void prober(pb).probe();
    expect(pb.calls.map((c) => c.name)).toEqual(SETTINGS.checks);
    expect(pb.snapshots).toHaveLength(0);
  });

  it("posts each check to its own path under CHECK_PATH with the name URL-encoded", () => {
    const paths: string[] = [];
    const post: Post = (path) => {
      paths.push(path);
      return new Promise(() => {});
    };
    void new Prober({ ...SETTINGS, checks: ["a b", "c/d"] }, { post, now: () => Date.now() }).probe();
    expect(paths).toEqual([`${CHECK_PATH}a%20b`, `${CHECK_PATH}c%2Fd`]);
  });

  it("posts the snapshot with results in the configured order, whatever order the checks answer in", async () => {
    const pb = fakePocketBase();
    const done = prober(pb).probe();
    for (const call of [...pb.calls].reverse()) call.answer(okAnswer(call.name, call.name === "schema" ? "warn" : "ok"));
    await done;
    expect(pb.snapshots).toHaveLength(1);
    expect(pb.snapshots[0].results.map((r) => r.name)).toEqual(SETTINGS.checks);
    expect(resultOf(pb.snapshots[0], "schema").state).toBe("warn");
  });

  it("passes a valid check result through unchanged", async () => {
    const pb = fakePocketBase();
    const done = prober(pb).probe();
    const result = { name: "database", state: "warn", detail: "slow", fix: "look", tookMs: 12 };
    for (const call of pb.calls) call.answer(call.name === "database" ? { status: 200, body: JSON.stringify(result) } : okAnswer(call.name));
    await done;
    expect(resultOf(pb.snapshots[0], "database")).toEqual(result);
  });

  it("reports the probe's duration as tookMs of the snapshot", async () => {
    const pb = fakePocketBase({ autoAnswerMs: 250 });
    const done = prober(pb).probe();
    await vi.advanceTimersByTimeAsync(250);
    await done;
    expect(pb.snapshots[0].tookMs).toBe(250);
  });

  it("fails a check that does not answer within timeoutMs, naming the deadline", async () => {
    const pb = fakePocketBase();
    const done = prober(pb).probe();
    for (const call of pb.calls) if (call.name !== "bus_reachable") call.answer(okAnswer(call.name));
    await vi.advanceTimersByTimeAsync(SETTINGS.timeoutMs);
    await done;
    const result = resultOf(pb.snapshots[0], "bus_reachable");
    expect(result.state).toBe("fail");
    expect(result.detail).toBe("did not finish within 1s (readiness.timeout)");
    expect(result.fix).toBeTruthy();
    expect(result.tookMs).toBe(SETTINGS.timeoutMs);
  });

  it("completes at timeoutMs when a check hangs, not later", async () => {
    const pb = fakePocketBase();
    let completed = false;
    const done = prober(pb)
      .probe()
      .then(() => (completed = true));
    for (const call of pb.calls) if (call.name !== "schema") call.answer(okAnswer(call.name));
    await vi.advanceTimersByTimeAsync(SETTINGS.timeoutMs - 1);
    expect(completed).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await done;
    expect(completed).toBe(true);
    expect(pb.snapshots[0].tookMs).toBe(SETTINGS.timeoutMs);
  });

  it("does not send a check again while its earlier request is outstanding, and fails it as still running", async () => {
    const { pb, p } = await probeLeavingSchemaOutstanding();

    await vi.advanceTimersByTimeAsync(4_000);
    const second = p.probe();
    expect(pb.callsOf("schema")).toHaveLength(1);
    await answerAll(pb, SETTINGS.checks.length, second);
    const result = resultOf(pb.snapshots[1], "schema");
    expect(result.state).toBe("fail");
    expect(result.detail).toBe("still running since an earlier probe 5s ago");
    expect(result.fix).toBeTruthy();
  });

  it("does not wait for the outstanding check: a probe with one still running completes once the others answer", async () => {
    const { pb, p } = await probeLeavingSchemaOutstanding();

    const second = p.probe();
    await answerAll(pb, SETTINGS.checks.length, second);
    expect(pb.snapshots).toHaveLength(2);
  });

  it("sends a check again on the probe after its late answer came back", async () => {
    const { pb, p } = await probeLeavingSchemaOutstanding();

    pb.callsOf("schema")[0].answer(okAnswer("schema"));
    await vi.advanceTimersByTimeAsync(0);

    const second = p.probe();
    expect(pb.callsOf("schema")).toHaveLength(2);
    await answerAll(pb, SETTINGS.checks.length, second);
    expect(resultOf(pb.snapshots[1], "schema").state).toBe("ok");
  });

  it("fails a check whose request is rejected (PocketBase unreachable) as a panic", async () => {
    const pb = fakePocketBase();
    const done = prober(pb).probe();
    for (const call of pb.calls) {
      if (call.name === "database") call.fail(new Error("connect ECONNREFUSED 127.0.0.1:8090"));
      else call.answer(okAnswer(call.name));
    }
    await done;
    const result = resultOf(pb.snapshots[0], "database");
    expect(result.state).toBe("fail");
    expect(result.detail).toBe("check panicked: connect ECONNREFUSED 127.0.0.1:8090");
  });

  it("sends a check again on the next probe after its request was rejected", async () => {
    const pb = fakePocketBase();
    const p = prober(pb);
    const first = p.probe();
    for (const call of pb.calls) {
      if (call.name === "database") call.fail(new Error("socket hang up"));
      else call.answer(okAnswer(call.name));
    }
    await first;
    void p.probe();
    expect(pb.callsOf("database")).toHaveLength(2);
  });

  it("turns a non-200 check answer into a panic carrying the body's message", async () => {
    const pb = fakePocketBase();
    const done = prober(pb).probe();
    for (const call of pb.calls) {
      if (call.name === "schema") call.answer({ status: 500, body: JSON.stringify({ message: "ReferenceError: x is not defined" }) });
      else call.answer(okAnswer(call.name));
    }
    await done;
    expect(resultOf(pb.snapshots[0], "schema")).toMatchObject({ state: "fail", detail: "check panicked: ReferenceError: x is not defined" });
  });

  it("rejects when the snapshot POST is not answered with 200", async () => {
    const pb = fakePocketBase();
    pb.state.snapshotStatus = 400;
    const done = prober(pb).probe();
    for (const call of pb.calls) call.answer(okAnswer(call.name));
    await expect(done).rejects.toThrow("400");
  });

  it("rejects when the snapshot POST itself fails", async () => {
    const pb = fakePocketBase();
    pb.state.snapshotStatus = null;
    const done = prober(pb).probe();
    for (const call of pb.calls) call.answer(okAnswer(call.name));
    await expect(done).rejects.toThrow("ECONNREFUSED");
  });
});

describe("readResult", () => {
  it("returns a 200 answer holding a result for that check", () => {
    const result = { name: "database", state: "skipped", detail: "n/a", fix: "none", tookMs: 4 };
    expect(readResult("database", { status: 200, body: JSON.stringify(result) }, 9)).toEqual(result);
  });

  it("makes a non-200 answer a panic with the body's message", () => {
    const result = readResult("database", { status: 500, body: JSON.stringify({ message: "boom\nat line 3" }) }, 9);
    expect(result).toMatchObject({ name: "database", state: "fail", detail: "check panicked: boom", tookMs: 9 });
    expect(result.fix).toBeTruthy();
  });

  it("makes a non-200 answer without a message a panic naming the status", () => {
    expect(readResult("database", { status: 502, body: "Bad Gateway" }, 1)).toMatchObject({ state: "fail", detail: "check panicked: status 502" });
  });

  it("makes a 200 answer that is not JSON a panic", () => {
    expect(readResult("database", { status: 200, body: "<html>" }, 1)).toMatchObject({ name: "database", state: "fail", detail: "check panicked: status 200" });
  });

  it("makes a 200 answer for another check's name a panic", () => {
    const result = readResult("database", okAnswer("schema"), 1);
    expect(result).toMatchObject({ name: "database", state: "fail" });
    expect(result.detail).toMatch(/^check panicked: /);
  });

  it("makes a 200 answer with an unknown state a panic", () => {
    const body = JSON.stringify({ name: "database", state: "broken", tookMs: 1 });
    expect(readResult("database", { status: 200, body }, 1)).toMatchObject({ state: "fail" });
  });

  it("makes a 200 answer without tookMs a panic", () => {
    const body = JSON.stringify({ name: "database", state: "ok" });
    expect(readResult("database", { status: 200, body }, 1)).toMatchObject({ state: "fail" });
  });

  it("makes a 200 answer with a non-string detail a panic", () => {
    const body = JSON.stringify({ name: "database", state: "ok", detail: 5, tookMs: 1 });
    expect(readResult("database", { status: 200, body }, 1)).toMatchObject({ state: "fail" });
  });

  it("uses the body's message even on a 200 answer that is not a valid result", () => {
    const body = JSON.stringify({ message: "half a result" });
    expect(readResult("database", { status: 200, body }, 1)).toMatchObject({ state: "fail", detail: "check panicked: half a result" });
  });
});

describe("Prober.start", () => {
  it("probes at once when started", () => {
    const pb = fakePocketBase({ autoAnswerMs: 10 });
    const p = prober(pb);
    p.start();
    expect(pb.calls).toHaveLength(SETTINGS.checks.length);
    p.stop();
  });

  it("retries every FIRST_PROBE_RETRY_MS until the first snapshot lands", async () => {
    const pb = fakePocketBase({ autoAnswerMs: 10 });
    pb.state.snapshotStatus = null;
    const p = prober(pb);
    p.start();
    await vi.advanceTimersByTimeAsync(10 + FIRST_PROBE_RETRY_MS + 10);
    pb.state.snapshotStatus = 503;
    await vi.advanceTimersByTimeAsync(FIRST_PROBE_RETRY_MS + 10 + FIRST_PROBE_RETRY_MS / 2);
    p.stop();
    // Each attempt answers in 10 ms and is refused; the next one follows FIRST_PROBE_RETRY_MS later.
    const t0 = pb.snapshots[0].at;
    expect(pb.snapshots.map((s) => s.at - t0)).toEqual([0, 10 + FIRST_PROBE_RETRY_MS, 2 * (10 + FIRST_PROBE_RETRY_MS)]);
  });

  it("probes every intervalMs once a snapshot has landed", async () => {
    const pb = fakePocketBase({ autoAnswerMs: 10 });
    pb.state.snapshotStatus = null;
    const p = prober(pb);
    p.start();
    await vi.advanceTimersByTimeAsync(10);
    pb.state.snapshotStatus = 200;
    await vi.advanceTimersByTimeAsync(FIRST_PROBE_RETRY_MS + 10);
    expect(pb.snapshots).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(3 * SETTINGS.intervalMs);
    p.stop();
    const probeStarts = pb.callsOf("database").map((c) => c.at - pb.calls[0].at);
    const landed = 10 + FIRST_PROBE_RETRY_MS;
    expect(probeStarts).toEqual([0, landed, landed + SETTINGS.intervalMs, landed + 2 * SETTINGS.intervalMs, landed + 3 * SETTINGS.intervalMs]);
  });

  it("keeps probing every intervalMs, not every FIRST_PROBE_RETRY_MS, when a later snapshot is refused", async () => {
    const pb = fakePocketBase({ autoAnswerMs: 10 });
    const p = prober(pb);
    p.start();
    await vi.advanceTimersByTimeAsync(10);
    expect(pb.snapshots).toHaveLength(1);
    pb.state.snapshotStatus = 500;
    await vi.advanceTimersByTimeAsync(2 * SETTINGS.intervalMs);
    p.stop();
    expect(pb.callsOf("database").map((c) => c.at - pb.calls[0].at)).toEqual([0, SETTINGS.intervalMs, 2 * SETTINGS.intervalMs]);
  });

  it("schedules start to start: a probe's own duration does not push the next one back", async () => {
    const pb = fakePocketBase({ autoAnswerMs: 300 });
    const p = prober(pb);
    p.start();
    await vi.advanceTimersByTimeAsync(300);
    expect(pb.snapshots).toHaveLength(1);
    const firstSentAt = pb.calls[0].at;
    await vi.advanceTimersByTimeAsync(SETTINGS.intervalMs - 300);
    expect(pb.calls).toHaveLength(2 * SETTINGS.checks.length);
    expect(pb.calls[SETTINGS.checks.length].at - firstSentAt).toBe(SETTINGS.intervalMs);
    p.stop();
  });

  it("sends nothing more after stop()", async () => {
    const pb = fakePocketBase({ autoAnswerMs: 0 });
    const p = prober(pb);
    p.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(pb.snapshots).toHaveLength(1);
    p.stop();
    await vi.advanceTimersByTimeAsync(5 * SETTINGS.intervalMs);
    expect(pb.calls).toHaveLength(SETTINGS.checks.length);
    expect(pb.snapshots).toHaveLength(1);
  });

  it("schedules nothing when stopped while a probe is in flight", async () => {
    const pb = fakePocketBase({ autoAnswerMs: 500 });
    const p = prober(pb);
    p.start();
    await vi.advanceTimersByTimeAsync(100);
    p.stop();
    await vi.advanceTimersByTimeAsync(5 * SETTINGS.intervalMs);
    expect(pb.calls).toHaveLength(SETTINGS.checks.length);
    expect(vi.getTimerCount()).toBe(0);
  });
});

/** A probe whose schema check never answered: it is still outstanding when the next probe starts. */
async function probeLeavingSchemaOutstanding() {
  const pb = fakePocketBase();
  const p = prober(pb);
  const first = p.probe();
  for (const call of pb.calls) if (call.name !== "schema") call.answer(okAnswer(call.name));
  await vi.advanceTimersByTimeAsync(SETTINGS.timeoutMs);
  await first;
  return { pb, p };
}

/** Answers ok to every call from index `from` on, then waits for `probe`. */
async function answerAll(pb: ReturnType<typeof fakePocketBase>, from: number, probe: Promise<void>): Promise<void> {
  for (const call of pb.calls.slice(from)) call.answer(okAnswer(call.name));
  await probe;
}
