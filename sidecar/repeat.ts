// A round of work repeated on a fixed period, the next round starting a period after the last one began
// (or at once when a round outlasted it); never two rounds at once. A round that throws is reported and
// the schedule goes on.

export interface Repeating {
  stop(): void;
}

export function repeatEvery(intervalMs: number, round: () => Promise<void>, warn: (message: string) => void, what: string): Repeating {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const tick = async (): Promise<void> => {
    const started = Date.now();
    await round().catch((err: unknown) => warn(`${what}: ${err instanceof Error ? err.message : String(err)}`));
    if (stopped) return;
    timer = setTimeout(() => void tick(), Math.max(0, started + intervalMs - Date.now()));
  };
  void tick();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
