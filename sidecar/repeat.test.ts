import { afterEach, describe, expect, it, vi } from "vitest";
import { repeatEvery } from "./repeat";

afterEach(() => vi.useRealTimers());

describe("repeatEvery", () => {
  it("starts a round at once, the next a period after the last began, and none after stop", async () => {
    vi.useFakeTimers();
    const started: number[] = [];
    const schedule = repeatEvery(1_000, async () => void started.push(Date.now()), () => {}, "test");
    await vi.advanceTimersByTimeAsync(2_500);
    expect(started.length).toBe(3);
    schedule.stop();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(started.length).toBe(3);
  });

  it("never runs two rounds at once, and starts the next at once after a round that outlasted the period", async () => {
    vi.useFakeTimers();
    let running = 0;
    let most = 0;
    let rounds = 0;
    const schedule = repeatEvery(100, async () => {
      running++;
      most = Math.max(most, running);
      rounds++;
      await new Promise((resolve) => setTimeout(resolve, 350));
      running--;
    }, () => {}, "slow");
    await vi.advanceTimersByTimeAsync(1_000);
    schedule.stop();
    expect(most).toBe(1);
    expect(rounds).toBe(3);
  });

  it("reports a round that throws and goes on", async () => {
    vi.useFakeTimers();
    const warnings: string[] = [];
    let rounds = 0;
    const schedule = repeatEvery(100, async () => {
      rounds++;
      throw new Error("no answer");
    }, (message) => warnings.push(message), "upkeep");
    await vi.advanceTimersByTimeAsync(250);
    schedule.stop();
    expect(rounds).toBe(3);
    expect(warnings[0]).toBe("upkeep: no answer");
  });
});
