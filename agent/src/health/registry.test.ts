import { describe, expect, it } from "vitest";
import type { Logger } from "../lib/log";
import type { Check, CheckOutcome } from "./check";
import { HealthRegistry, STARTUP_PROBE_MS } from "./registry";

function recordingLogger(): Logger & { lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const push = (level: string) => (msg: string, fields = {}) => lines.push({ level, msg, ...fields });
  return { lines, debug: push("debug"), info: push("info"), warn: push("warn"), error: push("error") };
}

const check = (name: string, run: () => Promise<CheckOutcome>): Check => ({ name, run });
const outcome = (value: CheckOutcome) => () => Promise.resolve(value);

function registry(logger = recordingLogger(), timeoutMs = 100) {
  return new HealthRegistry({ version: "1.2.3", intervalMs: 60_000, logger, timeoutMs, startedAt: new Date(Date.now() - 5_000) });
}

describe("HealthRegistry", () => {
  it("answers 503 not probed before the first probe, without running a check", () => {
    let ran = 0;
    const health = registry();
    health.register(check("bus", async () => (ran++, { state: "ok" })));
    const { status, body } = health.report();
    expect(status).toBe(503);
    expect(body).toMatchObject({ ready: false, state: "unprobed", version: "1.2.3", checked: null, checks: [] });
    expect(ran).toBe(0);
  });

  it("reports the checks sorted by name with the control plane's body and status", async () => {
    const health = registry();
    health.register(check("task_metrics", outcome({ state: "ok" })));
    health.register(check("persistence", outcome({ state: "warn", detail: "no stream" })));
    await health.probe();
    const { status, body } = health.report();
    expect(status).toBe(200);
    expect(body).toMatchObject({ ready: true, state: "warn", version: "1.2.3" });
    const checks = (body as { checks: Array<Record<string, string>> }).checks;
    expect(checks.map((c) => c.name)).toEqual(["persistence", "task_metrics"]);
    expect(Object.keys(checks[0])).toEqual(["name", "state", "detail", "fix", "took"]);
  });

  it("refresh() probes at once between the interval's probes, once started; not before start or after stop", async () => {
    let state: CheckOutcome["state"] = "fail";
    const health = registry();
    health.register(check("bus", async () => ({ state })));
    health.refresh();
    await new Promise((r) => setTimeout(r, 10));
    expect(health.snapshot()).toBeUndefined();
    health.start();
    await new Promise((r) => setTimeout(r, 10));
    expect(health.report().status).toBe(503);
    state = "ok";
    health.refresh();
    await new Promise((r) => setTimeout(r, 10));
    expect(health.report().status).toBe(200);
    health.stop();
    state = "fail";
    health.refresh();
    await new Promise((r) => setTimeout(r, 10));
    expect(health.report().status).toBe(200);
  });

  it("turns a throw (sync or async) into a fail, its stack logged, and a hung check into a fail naming the bound", async () => {
    const logger = recordingLogger();
    const health = registry(logger);
    health.register({ name: "sync_throw", run: () => { throw new Error("boom\nstack"); } });
    health.register(check("async_throw", () => Promise.reject(new Error("nope"))));
    health.register(check("hung", () => new Promise(() => undefined)));
    health.register(check("ok", outcome({ state: "ok" })));
    const snapshot = await health.probe();
    const byName = Object.fromEntries(snapshot.results.map((r) => [r.name, r]));
    expect(byName.sync_throw).toMatchObject({ state: "fail", detail: "check panicked: boom" });
    expect(byName.async_throw).toMatchObject({ state: "fail", detail: "check panicked: nope" });
    const crashes = logger.lines.filter((line) => line.msg === "check crashed");
    expect(crashes.map((line) => line.check).sort()).toEqual(["async_throw", "sync_throw"]);
    expect(crashes.find((line) => line.check === "sync_throw")?.stack).toMatch(/^Error: boom\nstack\n\s+at /);
    expect(byName.hung).toMatchObject({ state: "fail", detail: "check did not answer within 0.1s" });
    expect(snapshot.ready).toBe(false);
    expect(health.report().status).toBe(503);
  });

  it("runs checks concurrently and does not start a hung check again", async () => {
    let started = 0;
    let active = 0;
    let most = 0;
    const health = registry(recordingLogger(), 150);
    const slow = async (): Promise<CheckOutcome> => {
      most = Math.max(most, ++active);
      await new Promise((r) => setTimeout(r, 20));
      active--;
      return { state: "ok" };
    };
    for (const name of ["a", "b", "c"]) health.register(check(name, slow));
    health.register(check("hung", () => (started++, new Promise(() => undefined))));
    await health.probe();
    expect(most).toBe(3);
    await health.probe();
    expect(started).toBe(1);
  });

  it("logs only the checks whose state changed", async () => {
    const logger = recordingLogger();
    const health = registry(logger);
    let state: CheckOutcome["state"] = "ok";
    health.register(check("bus", async () => ({ state })));
    health.register(check("steady", outcome({ state: "ok" })));
    await health.probe();
    expect(logger.lines.map((l) => [l.check, l.from, l.to])).toEqual([["bus", "unprobed", "ok"], ["steady", "unprobed", "ok"]]);
    logger.lines.length = 0;
    await health.probe();
    expect(logger.lines).toEqual([]);
    state = "fail";
    await health.probe();
    expect(logger.lines).toMatchObject([{ level: "warn", msg: "check state changed", check: "bus", from: "ok", to: "fail" }]);
  });

  it("after start, probes again soon while a check is not ok yet (within the first interval), then every interval", async () => {
    // A component still coming up at the first probe (the gateway's leaf, the bus) is reported when it is
    // up, not one interval (15 s by default) later.
    let probes = 0;
    const health = registry();
    health.register(check("leaf", async () => (++probes >= 3 ? { state: "ok" } : { state: "fail", detail: "starting" })));
    health.start();
    try {
      await new Promise((r) => setTimeout(r, 4 * STARTUP_PROBE_MS));
      expect(health.report().status).toBe(200);
      expect(probes).toBe(3);
      await new Promise((r) => setTimeout(r, 2 * STARTUP_PROBE_MS));
      expect(probes).toBe(3);
    } finally {
      health.stop();
    }
  });

  it("refuses two checks of one name", () => {
    const health = registry();
    health.register(check("bus", outcome({ state: "ok" })));
    expect(() => health.register(check("bus", outcome({ state: "ok" })))).toThrow(/registered already/);
  });
});
