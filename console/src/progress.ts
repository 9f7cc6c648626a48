// When to show the progress indicator: only once work has been in flight for longer than a threshold, so
// quick answers never flash a bar, and hidden as soon as nothing is in flight any more.

/** Work shorter than this shows no indicator (issue 12: progress on anything slower than 300 ms). */
export const PROGRESS_DELAY_MS = 300;

export interface DelayedProgress {
  /** Called with the number of requests in flight each time it changes. */
  update(inFlight: number): void;
}

/**
 * Calls `show(true)` once the in-flight count has stayed above zero for `delayMs` without interruption,
 * and `show(false)` when it drops back to zero after having been shown. A period that ends before the
 * delay shows nothing; overlapping work extends the period instead of restarting the clock.
 */
export function delayedProgress(show: (visible: boolean) => void, delayMs = PROGRESS_DELAY_MS): DelayedProgress {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let visible = false;
  return {
    update(inFlight) {
      if (inFlight > 0) {
        if (timer !== undefined || visible) return;
        timer = setTimeout(() => {
          timer = undefined;
          visible = true;
          show(true);
        }, delayMs);
        return;
      }
      clearTimeout(timer);
      timer = undefined;
      if (!visible) return;
      visible = false;
      show(false);
    },
  };
}
