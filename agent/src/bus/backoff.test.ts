import { describe, expect, it } from "vitest";
import { createBackoff } from "./backoff";

describe("createBackoff", () => {
  it("doubles from the initial wait up to the maximum and starts over on reset", () => {
    const backoff = createBackoff({ initialMs: 500, maxMs: 3_000 }, () => 0);
    expect([1, 2, 3, 4, 5].map(() => backoff.next())).toEqual([500, 1_000, 2_000, 3_000, 3_000]);
    backoff.reset();
    expect(backoff.next()).toBe(500);
  });

  it("takes at most a fifth off as jitter and never overflows over a long outage", () => {
    const backoff = createBackoff({ initialMs: 1_000, maxMs: 30_000 }, () => 1);
    expect(backoff.next()).toBe(800);
    for (let i = 0; i < 100_000; i++) backoff.next();
    expect(backoff.next()).toBe(24_000);
  });
});
