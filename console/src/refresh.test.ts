import { describe, expect, it } from "vitest";
import { MAX_TIMER_MS, REFRESH_MARGIN_MS, refreshDelayMs, refreshOnVisible } from "./refresh";

describe("token refresh timing", () => {
  const now = 1_700_000_000_000;
  it("refreshes ten minutes before expiry", () => {
    expect(refreshDelayMs(now / 1000 + 3600, now)).toBe(3600_000 - REFRESH_MARGIN_MS);
  });
  it("refreshes at once when inside the margin or already expired", () => {
    expect(refreshDelayMs(now / 1000 + 60, now)).toBe(0);
    expect(refreshDelayMs(now / 1000 - 60, now)).toBe(0);
  });
  it("never arms a timer beyond setTimeout's range (a longer wait is re-armed)", () => {
    expect(refreshDelayMs(now / 1000 + 60 * 24 * 3600, now)).toBe(MAX_TIMER_MS);
  });
  it("a visible tab refreshes when the last refresh is a minute old", () => {
    expect(refreshOnVisible(now - 59_000, now)).toBe(false);
    expect(refreshOnVisible(now - 60_000, now)).toBe(true);
  });
});
