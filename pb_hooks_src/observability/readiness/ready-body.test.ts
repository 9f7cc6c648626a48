import { describe, expect, it } from "vitest";
import { readyBodyRenderer } from "./ready-body";
import { readinessBody, type CheckResult } from "../../../common/readiness/report";
import type { ReadinessSnapshot } from "./snapshot";
import { httpStatus } from "../../../common/readiness/states";

const STARTED_MS = Date.parse("2026-03-10T11:00:00.000Z");
const PROBED_MS = Date.parse("2026-03-10T12:02:03.000Z");

const snapshotText = (results: CheckResult[], probedAtMs = PROBED_MS) => JSON.stringify({ results, probedAtMs, tookMs: 12.5 } satisfies ReadinessSnapshot);

/** What a render from scratch gives: the reference the kept parts must always equal. */
function fresh(text: string, startedAtMs: number, nowMs: number) {
  const snapshot = JSON.parse(text) as ReadinessSnapshot;
  const body = readinessBody({
    results: snapshot.results,
    version: "1.2.3",
    startedAt: new Date(startedAtMs),
    probedAt: new Date(snapshot.probedAtMs),
    probeTookMs: snapshot.tookMs,
    now: new Date(nowMs),
  });
  return { status: httpStatus(body.state), json: JSON.stringify(body) };
}

// Values that look like the body's own keys and the splice mark, inside a check that sorts after uptime.
const TRICKY: CheckResult[] = [
  { name: "zz_last", state: "warn", detail: 'has "uptime":"1s" and \u0000uptime\u0000 in it', fix: "fix \u0000uptime\u0000", tookMs: 3 },
  { name: "schema", state: "ok", tookMs: 2 },
];

describe("readyBodyRenderer", () => {
  it("gives, for every request time, exactly the body rendered from scratch", () => {
    const render = readyBodyRenderer("1.2.3");
    const text = snapshotText(TRICKY);
    for (const nowMs of [PROBED_MS, PROBED_MS + 1, PROBED_MS + 1_500, PROBED_MS + 86_400_000 * 3 + 7]) {
      expect(render(text, STARTED_MS, nowMs)).toEqual(fresh(text, STARTED_MS, nowMs));
    }
  });

  it("renders a new snapshot anew: checks, status and checked follow it", () => {
    const render = readyBodyRenderer("1.2.3");
    const ok = snapshotText([{ name: "schema", state: "ok", tookMs: 1 }]);
    const failing = snapshotText([{ name: "schema", state: "fail", detail: "broken", tookMs: 1 }], PROBED_MS + 10_000);
    expect(render(ok, STARTED_MS, PROBED_MS + 1).status).toBe(200);
    const after = render(failing, STARTED_MS, PROBED_MS + 10_001);
    expect(after).toEqual(fresh(failing, STARTED_MS, PROBED_MS + 10_001));
    expect(after.status).toBe(503);
    expect(render(ok, STARTED_MS, PROBED_MS + 20_000)).toEqual(fresh(ok, STARTED_MS, PROBED_MS + 20_000));
  });

  it("follows the start time it is given", () => {
    const render = readyBodyRenderer("1.2.3");
    const text = snapshotText(TRICKY);
    render(text, STARTED_MS, PROBED_MS);
    expect(render(text, STARTED_MS + 60_000, PROBED_MS)).toEqual(fresh(text, STARTED_MS + 60_000, PROBED_MS));
  });
});
