import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PROGRESS_DELAY_MS, delayedProgress } from "./progress";

describe("progress shown after 300 ms of work in flight", () => {
  let shown: boolean[];
  beforeEach(() => {
    vi.useFakeTimers();
    shown = [];
  });
  afterEach(() => vi.useRealTimers());

  it("shows nothing for work that settles within the delay", () => {
    const progress = delayedProgress((visible) => shown.push(visible));
    progress.update(1);
    vi.advanceTimersByTime(PROGRESS_DELAY_MS - 1);
    progress.update(0);
    vi.advanceTimersByTime(10 * PROGRESS_DELAY_MS);
    expect(shown).toEqual([]);
  });

  it("shows after the delay, not before, and hides when the work settles", () => {
    const progress = delayedProgress((visible) => shown.push(visible));
    progress.update(1);
    vi.advanceTimersByTime(PROGRESS_DELAY_MS - 1);
    expect(shown).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(shown).toEqual([true]);
    progress.update(0);
    expect(shown).toEqual([true, false]);
  });

  it("overlapping work keeps the clock of the first and hides only when all of it settled", () => {
    const progress = delayedProgress((visible) => shown.push(visible));
    progress.update(1);
    vi.advanceTimersByTime(200);
    progress.update(2);
    vi.advanceTimersByTime(100);
    expect(shown).toEqual([true]);
    progress.update(1);
    expect(shown).toEqual([true]);
    progress.update(0);
    expect(shown).toEqual([true, false]);
  });

  it("a new period after a quiet one starts the clock again", () => {
    const progress = delayedProgress((visible) => shown.push(visible));
    progress.update(1);
    vi.advanceTimersByTime(250);
    progress.update(0);
    progress.update(1);
    vi.advanceTimersByTime(250);
    expect(shown).toEqual([]);
    vi.advanceTimersByTime(50);
    expect(shown).toEqual([true]);
  });
});
