import { describe, expect, it } from "vitest";
import { doublingDelay } from "./backoff";

describe("doublingDelay", () => {
  it("doubles the first delay once per step and stops at the cap", () => {
    expect([0, 1, 2, 3, 4].map((n) => doublingDelay(1_000, n, 5_000))).toEqual([1_000, 2_000, 4_000, 5_000, 5_000]);
  });

  it("counts no step below zero, and a huge count is the cap", () => {
    expect(doublingDelay(1_000, -3, 5_000)).toBe(1_000);
    expect(doublingDelay(1_000, 5_000, 5_000)).toBe(5_000);
  });
});
