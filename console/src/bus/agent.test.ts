import { describe, expect, it } from "vitest";
import { DEFAULT_LIVE_SUBJECTS, healthSubject, parseReadiness, parseSubjects, preview } from "./agent";

describe("agent subjects (agent/README.md)", () => {
  it("defaults to every agent's heartbeats and telemetry; health is the Thing's cmd.health", () => {
    expect(DEFAULT_LIVE_SUBJECTS).toEqual(["agents.*.heartbeat", "agents.*.telemetry"]);
    expect(healthSubject("SENS-0001")).toBe("agents.SENS-0001.cmd.health");
  });
});

describe("parseSubjects", () => {
  it("splits on spaces and commas, drops duplicates", () => {
    expect(parseSubjects(" agents.*.heartbeat, agents.> agents.*.heartbeat")).toEqual({ ok: true, subjects: ["agents.*.heartbeat", "agents.>"] });
  });
  it("refuses empty input, empty tokens, > before the end and partial wildcards", () => {
    for (const bad of ["", "agents..x", "agents.>.x", "agents.a*", "a.b>"]) expect(parseSubjects(bad).ok, bad).toBe(false);
  });
});

describe("parseReadiness", () => {
  it("reads the /ready body", () => {
    const body = JSON.stringify({ ready: true, state: "warn", version: "1", uptime: "3s", took: "1ms", checked: "t", checks: [{ name: "bus", state: "ok", took: "0s" }, { name: "overlay", state: "warn", detail: "not running", fix: "start it", took: "0s" }] });
    expect(parseReadiness(body)).toEqual({
      ready: true, state: "warn", version: "1", uptime: "3s", took: "1ms", checked: "t",
      checks: [{ name: "bus", state: "ok", detail: undefined, fix: undefined, took: "0s" }, { name: "overlay", state: "warn", detail: "not running", fix: "start it", took: "0s" }],
    });
  });
  it("is null for anything else", () => {
    for (const body of ["", "nope", "[]", "{\"pong\":true}"]) expect(parseReadiness(body)).toBeNull();
  });
});

describe("preview", () => {
  it("cuts long payloads", () => {
    expect(preview("abcdef", 4)).toBe("abc…");
    expect(preview("abc", 4)).toBe("abc");
  });
});
