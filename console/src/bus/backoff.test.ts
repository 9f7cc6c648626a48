import { describe, expect, it } from "vitest";
import { LONGEST_WAIT_MS, reconnectDelay } from "./backoff";

describe("reconnectDelay", () => {
  it("grows from 1 s to 10 s and stays there", () => {
    expect([0, 1, 2, 3, 4, 100].map(reconnectDelay)).toEqual([1_000, 2_000, 4_000, 8_000, 10_000, 10_000]);
  });
  it("dials at most 360 + a few times in an hour-long outage", () => {
    let elapsed = 0;
    let attempts = 0;
    while (elapsed < 3_600_000) elapsed += reconnectDelay(attempts++);
    expect(attempts).toBeLessThanOrEqual(3_600_000 / LONGEST_WAIT_MS + 4);
  });
});
