import { describe, expect, it } from "vitest";
import { parseDuration } from "../config/duration";
import { formatDuration } from "./duration-text";

describe("formatDuration", () => {
  it("matches Go's Duration.String", () => {
    expect(formatDuration(0)).toBe("0s");
    expect(formatDuration(3_723_500)).toBe("1h2m3.5s");
    expect(formatDuration(3_600_000)).toBe("1h0m0s");
    expect(formatDuration(90_000)).toBe("1m30s");
    expect(formatDuration(1000)).toBe("1s");
    expect(formatDuration(1500)).toBe("1.5s");
    expect(formatDuration(500)).toBe("500ms");
    expect(formatDuration(1.5)).toBe("1.5ms");
    expect(formatDuration(0.0015)).toBe("1.5µs");
    expect(formatDuration(0.000001)).toBe("1ns");
    expect(formatDuration(-1500)).toBe("-1.5s");
    expect(formatDuration(720 * 3_600_000)).toBe("720h0m0s");
    expect(formatDuration(1000.000001)).toBe("1.000000001s");
  });

  it("stays exact for long uptimes", () => {
    expect(formatDuration(400 * 86_400_000 + 1.25)).toBe("9600h0m0.00125s");
  });

  it("round-trips through parseDuration", () => {
    for (const ms of [0, 1, 250, 1500, 61_000, 3_723_500, 86_400_000]) {
      expect(parseDuration(formatDuration(ms))).toBeCloseTo(ms, 6);
    }
  });

  it("rejects non-finite input", () => {
    expect(() => formatDuration(NaN)).toThrow();
  });
});
