// One bucket's work on one local connection: it ends when the connection closes, a newer connection
// replaces it, or the agent stops. Waits are interruptible (`poke`) so new work or the end is acted on at once.
export class Session {
  private ended = false;
  private poked = false;
  private wake: (() => void) | undefined;

  get live(): boolean {
    return !this.ended;
  }

  end(): void {
    this.ended = true;
    this.poke();
  }

  poke(): void {
    this.poked = true;
    this.wake?.();
  }

  /** Waits `ms`, or less when poked (a poke before the wait counts: none is lost). */
  wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.poked || this.ended) {
        this.poked = false;
        return resolve();
      }
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        this.poked = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }
}

/** A JetStream error's text, for a status reason and the log (never carries secrets). */
export function reasonOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Whether `err` is JetStream's "stream not found" (the hub side of a bucket does not exist yet). */
export function isStreamNotFound(err: unknown): boolean {
  return err instanceof Error && ((err as { code?: unknown }).code === 10059 || /stream not found/i.test(err.message));
}
