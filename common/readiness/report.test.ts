import { describe, expect, it } from "vitest";
import { CheckResult, GENERIC_FIX, NOT_PROBED_STATUS, notProbedBody, panicked, readinessBody } from "./report";
import { CHECK_STATES } from "./states";

const STARTED = new Date("2026-03-10T11:00:00.000Z");
const PROBED = new Date("2026-03-10T12:02:03.000Z");
const NOW = new Date("2026-03-10T12:02:03.500Z");

function body(results: CheckResult[]) {
  return readinessBody({ results, version: "1.2.3", startedAt: STARTED, probedAt: PROBED, probeTookMs: 12.5, now: NOW });
}

describe("readinessBody", () => {
  it("builds the 2.3 body exactly", () => {
    expect(
      body([
        { name: "schema", state: "ok", tookMs: 2 },
        { name: "bus_reachable", state: "warn", detail: "persistence disabled", fix: "set bus.persist", tookMs: 1500 },
      ]),
    ).toEqual({
      ready: true,
      state: "warn",
      version: "1.2.3",
      uptime: "1h2m3.5s",
      took: "12.5ms",
      checked: "2026-03-10T12:02:03.000Z",
      checks: [
        { name: "bus_reachable", state: "warn", detail: "persistence disabled", fix: "set bus.persist", took: "1.5s" },
        { name: "schema", state: "ok", took: "2ms" },
      ],
    });
  });

  it("is not ready iff some check fails", () => {
    expect(body([{ name: "a", state: "fail", fix: "x", tookMs: 0 }, { name: "b", state: "ok", tookMs: 0 }]).ready).toBe(false);
    for (const state of CHECK_STATES.filter((s) => s !== "fail")) {
      expect(body([{ name: "a", state, tookMs: 0 }]).ready).toBe(true);
    }
  });

  it("takes the worst state, skipped when all are skipped or none ran", () => {
    expect(body([{ name: "a", state: "fail", tookMs: 0 }, { name: "b", state: "warn", tookMs: 0 }]).state).toBe("fail");
    expect(body([{ name: "a", state: "skipped", tookMs: 0 }, { name: "b", state: "skipped", tookMs: 0 }]).state).toBe("skipped");
    expect(body([{ name: "a", state: "skipped", tookMs: 0 }, { name: "b", state: "ok", tookMs: 0 }]).state).toBe("ok");
    expect(body([]).state).toBe("skipped");
    expect(body([]).ready).toBe(true);
  });

  it("sorts checks by name without changing the input", () => {
    const results: CheckResult[] = ["schema", "bootstrap", "database"].map((name) => ({ name, state: "ok", tookMs: 0 }));
    expect(body(results).checks.map((c) => c.name)).toEqual(["bootstrap", "database", "schema"]);
    expect(results.map((r) => r.name)).toEqual(["schema", "bootstrap", "database"]);
  });

  it("puts a fix on every non-ok check, generic prose when the check gave none", () => {
    const checks = body([
      { name: "a", state: "fail", tookMs: 0 },
      { name: "b", state: "warn", fix: "", tookMs: 0 },
      { name: "c", state: "skipped", tookMs: 0 },
      { name: "d", state: "fail", fix: "platform bootstrap", tookMs: 0 },
      { name: "e", state: "ok", tookMs: 0 },
    ]).checks;
    expect(checks.map((c) => c.fix)).toEqual([GENERIC_FIX, GENERIC_FIX, GENERIC_FIX, "platform bootstrap", undefined]);
    expect("fix" in checks[4]).toBe(false);
    expect("detail" in checks[4]).toBe(false);
  });
});

describe("notProbedBody", () => {
  it("says readiness has not been probed, distinguishable from a failing check", () => {
    const b = notProbedBody("1.2.3", STARTED, NOW);
    expect(b).toEqual({
      ready: false,
      state: "unprobed",
      detail: "readiness has not been probed yet",
      version: "1.2.3",
      uptime: "1h2m3.5s",
      took: "0s",
      checked: null,
      checks: [],
    });
    expect(CHECK_STATES as readonly string[]).not.toContain(b.state);
    expect(NOT_PROBED_STATUS).toBe(503);
  });
});

describe("panicked", () => {
  it("is a fail result naming the panic without a stack trace", () => {
    const error = new Error("boom\nsecond line");
    const result = panicked("database", error, 3);
    expect(result).toMatchObject({ name: "database", state: "fail", detail: "check panicked: boom", tookMs: 3 });
    expect(result.fix).toBeTruthy();
    expect(result.detail).not.toContain("at ");
    expect(result.detail).not.toContain(error.stack!.split("\n")[1]);
  });

  it("handles non-Error throws", () => {
    expect(panicked("x", "plain").detail).toBe("check panicked: plain");
    expect(panicked("x", { message: "goja error" }).detail).toBe("check panicked: goja error");
    expect(panicked("x", undefined).detail).toBe("check panicked: undefined");
    expect(panicked("x", "").detail).toBe("check panicked: unknown error");
    expect(panicked("x", "").tookMs).toBe(0);
  });
});
