import { describe, expect, it } from "vitest";
import { bounded, chartPoints, DEFAULT_WIDGETS, fieldValue, readDashboard, storageKey, toneOf, writeDashboard, type Widget } from "./dashboards";

function memory(): Storage {
  const map = new Map<string, string>();
  return { getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v), removeItem: (k) => void map.delete(k), clear: () => map.clear(), key: () => null, length: 0 };
}

const stat: Widget = { id: "a", kind: "stat", title: "CPU", subject: "agents.x.telemetry", field: "cpu.busy" };

describe("dashboard storage", () => {
  it("starts with the defaults, then keeps what was saved, per organization", () => {
    const storage = memory();
    expect(readDashboard(storage, "org1")).toEqual(DEFAULT_WIDGETS);
    writeDashboard(storage, "org1", [stat]);
    expect(readDashboard(storage, "org1")).toEqual([stat]);
    expect(readDashboard(storage, "org2")).toEqual(DEFAULT_WIDGETS);
    writeDashboard(storage, "org2", []);
    expect(readDashboard(storage, "org2")).toEqual([]);
  });
  it("keeps only valid widgets of a hand-edited value; garbage is an empty dashboard", () => {
    const storage = memory();
    storage.setItem(storageKey("o"), JSON.stringify([stat, { ...stat, kind: "pie" }, { ...stat, subject: "" }, 3]));
    expect(readDashboard(storage, "o")).toEqual([stat]);
    storage.setItem(storageKey("o"), "{not json");
    expect(readDashboard(storage, "o")).toEqual([]);
  });
});

describe("widget values", () => {
  it("reads a dotted field of a JSON payload; the whole payload for an empty field", () => {
    expect(fieldValue('{"cpu":{"busy":0.25}}', "cpu.busy")).toBe(0.25);
    expect(fieldValue('{"cpu":1}', "cpu.busy")).toBeUndefined();
    expect(fieldValue("plain", "")).toBe("plain");
    expect(fieldValue("plain", "x")).toBeUndefined();
  });
  it("bounds a series", () => {
    expect(bounded([1, 2, 3], 4, 3)).toEqual([2, 3, 4]);
  });
  it("scales chart points into the box", () => {
    expect(chartPoints([0, 5, 10], 100, 50)).toBe("0,50 50,25 100,0");
    expect(chartPoints([7], 100, 50)).toBe("0,50");
    expect(chartPoints([], 100, 50)).toBe("");
  });
  it("tones a badge from readiness words", () => {
    expect([toneOf("ok"), toneOf(true), toneOf("warn"), toneOf("fail"), toneOf(false), toneOf(3)]).toEqual(["ok", "ok", "warn", "fail", "fail", "unknown"]);
  });
});
