import { describe, expect, it } from "vitest";
import { MAX_DELAY_MS, nextFailures, restartDelay, STABLE_RUN_MS } from "./backoff";

describe("restart back-off", () => {
  it("doubles from 1 s and stops at 60 s", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(restartDelay)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, MAX_DELAY_MS, MAX_DELAY_MS]);
  });

  it("counts crashes in a row and starts over after a stable run", () => {
    expect(nextFailures(0, 10)).toBe(1);
    expect(nextFailures(3, STABLE_RUN_MS - 1)).toBe(4);
    expect(nextFailures(6, STABLE_RUN_MS)).toBe(1);
  });
});
