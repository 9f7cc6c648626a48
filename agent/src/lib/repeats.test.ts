import { describe, expect, it } from "vitest";
import { RepeatedLines, lineKind } from "./repeats";

const refusal = (cid: number, second: number) =>
  `[7] 2026/11/25 15:00:${String(second).padStart(2, "0")}.123456 [ERR] 127.0.0.1:${51000 + cid} - lid:${cid} - maximum account active connections exceeded`;

describe("RepeatedLines", () => {
  it("logs the first of a kind, holds back its repeats for the window, then logs one with their count", () => {
    let now = 0;
    const repeats = new RepeatedLines(60_000, () => now);
    expect(repeats.offer(refusal(1, 0))).toEqual({ repeated: 0 });
    for (let i = 2; i <= 100; i++) {
      now += 500;
      expect(repeats.offer(refusal(i, i % 60))).toBeUndefined();
    }
    now = 60_000;
    expect(repeats.offer(refusal(101, 0))).toEqual({ repeated: 99 });
    // Another kind of line is not held back by the first.
    expect(repeats.offer("[7] 2026/11/25 15:01:00.000000 [WRN] JetStream disk usage high")).toEqual({ repeated: 0 });
  });

  it("forgets the kind logged longest ago past its bound", () => {
    const repeats = new RepeatedLines(60_000, () => 0, 2);
    repeats.offer("a");
    repeats.offer("b");
    repeats.offer("c");
    expect(repeats.offer("a")).toEqual({ repeated: 0 });
    expect(repeats.offer("c")).toBeUndefined();
  });

  it("tells kinds apart by their words, not their numbers", () => {
    expect(lineKind(refusal(1, 5))).toBe(lineKind(refusal(999, 42)));
    expect(lineKind("[ERR] a")).not.toBe(lineKind("[ERR] b"));
  });
});
