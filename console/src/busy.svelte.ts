// Work in flight, shown as aria-busy on <main> (assistive technology and the browser tests both read it).
import { untrack } from "svelte";

export const busy = $state({ count: 0 });

/**
 * Counts `work` as in flight until it settles. Screens call this from effects: the count is changed
 * untracked, or the effect would depend on what it writes and re-run forever.
 */
export async function track<T>(work: Promise<T>): Promise<T> {
  untrack(() => busy.count++);
  try {
    return await work;
  } finally {
    busy.count--;
  }
}
