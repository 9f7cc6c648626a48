// Work in flight, shown as aria-busy on <main> (assistive technology and the browser tests both read it),
// and as a visible progress indicator once it has lasted longer than PROGRESS_DELAY_MS.
import { untrack } from "svelte";
import { delayedProgress } from "./progress";

export const busy = $state({ count: 0, slow: false });

const progress = delayedProgress((visible) => (busy.slow = visible));

/**
 * Counts `work` as in flight until it settles. Screens call this from effects: the count is changed
 * untracked, or the effect would depend on what it writes and re-run forever.
 */
export async function track<T>(work: Promise<T>): Promise<T> {
  untrack(() => progress.update(++busy.count));
  try {
    return await work;
  } finally {
    progress.update(--busy.count);
  }
}
