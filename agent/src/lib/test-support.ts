// For the agent's unit tests only (no production module imports it): probes on processes and polling.

/** Whether a process exists (signal 0 probes without sending). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Resolves once `done()` holds; rejects after `withinMs`. */
export async function until(done: () => boolean, withinMs = 5_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${withinMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
