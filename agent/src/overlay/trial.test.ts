import { describe, expect, it } from "vitest";
import { judgeTrial } from "./trial";

const TIMEOUT = 30_000;

describe("judgeTrial", () => {
  const trial = { startedAt: 1_000, hasLighthouses: true, hasFallback: true };

  it("confirms on a lighthouse handshake, at any time", () => {
    expect(judgeTrial(trial, 1_001, TIMEOUT, true)).toBe("confirm");
    expect(judgeTrial(trial, 1_000 + 10 * TIMEOUT, TIMEOUT, true)).toBe("confirm");
  });

  it("waits until the timeout, then rolls back", () => {
    expect(judgeTrial(trial, 1_000, TIMEOUT, false)).toBe("wait");
    expect(judgeTrial(trial, 1_000 + TIMEOUT - 1, TIMEOUT, false)).toBe("wait");
    expect(judgeTrial(trial, 1_000 + TIMEOUT, TIMEOUT, false)).toBe("rollback");
  });

  it("keeps the very first config (nothing to return to) and calls it unproven", () => {
    expect(judgeTrial({ ...trial, hasFallback: false }, 1_000 + TIMEOUT, TIMEOUT, false)).toBe("unproven");
    expect(judgeTrial({ ...trial, hasFallback: false }, 1_000 + TIMEOUT, TIMEOUT, true)).toBe("confirm");
  });

  it("confirms at once a config with no lighthouse to handshake with (a lighthouse itself)", () => {
    expect(judgeTrial({ ...trial, hasLighthouses: false }, 1_000, TIMEOUT, false)).toBe("confirm");
  });
});
