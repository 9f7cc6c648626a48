import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Backlog, cursorFile, loadCursor, saveCursor } from "./backlog";

describe("Backlog", () => {
  it("keeps one entry per key, oldest change first, and a cursor below the oldest pending change", () => {
    const backlog = new Backlog(10);
    backlog.add("a", 11);
    backlog.add("b", 12);
    backlog.add("a", 13);
    expect(backlog.size).toBe(2);
    expect(backlog.oldest(5)).toEqual([["b", 12], ["a", 13]]);
    expect(backlog.confirmedThrough()).toBe(11);
    backlog.confirm("b", 12);
    expect(backlog.confirmedThrough()).toBe(12);
    backlog.confirm("a", 13);
    expect(backlog.size).toBe(0);
    expect(backlog.confirmedThrough()).toBe(13);
  });
  it("keeps a key whose newer change arrived after the confirmed one", () => {
    const backlog = new Backlog(0);
    backlog.add("a", 1);
    backlog.add("a", 2);
    backlog.confirm("a", 1);
    expect(backlog.oldest(1)).toEqual([["a", 2]]);
  });
  it("knows how long it has not been empty", () => {
    const backlog = new Backlog(0);
    expect(backlog.ageMs()).toBe(0);
    backlog.add("a", 1);
    expect(backlog.ageMs(Date.now() + 5_000)).toBeGreaterThanOrEqual(4_900);
    backlog.confirm("a", 1);
    expect(backlog.ageMs(Date.now() + 5_000)).toBe(0);
  });
  it("starts from the persisted cursor with nothing pending", () => {
    expect(new Backlog(42).confirmedThrough()).toBe(42);
  });
});

describe("cursor file", () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  it("round-trips for the same site stream and starts over for a recreated one or an unreadable file", () => {
    dir = mkdtempSync(join(tmpdir(), "kv-cursor-"));
    const path = cursorFile(dir, "orders");
    expect(loadCursor(path, "t1")).toEqual({ seq: 0, reset: false });
    saveCursor(path, { created: "t1", seq: 7 });
    expect(loadCursor(path, "t1")).toEqual({ seq: 7, reset: false });
    expect(loadCursor(path, "t2")).toEqual({ seq: 0, reset: true });
    writeFileSync(path, "{not json");
    expect(loadCursor(path, "t1")).toEqual({ seq: 0, reset: true });
  });
});
