// A child's log lines that say the same thing over and over, collapsed. While a site's organization is
// suspended the leaf refuses each reconnect with "maximum account active connections exceeded", about
// two lines a second, ~155,000 a day in the agent's log. Pure, with the clock passed in.

/** What a line says, without what varies between repeats: timestamps, pids, ports and connection ids. */
export function lineKind(line: string): string {
  return line.replace(/\d+/g, "#");
}

export class RepeatedLines {
  private readonly last = new Map<string, { since: number; repeated: number }>();

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
    private readonly kinds = 64,
  ) {}

  /**
   * Whether to log `line`: undefined while one of its kind was logged less than windowMs ago (counted),
   * else the number of its kind held back since the last one logged.
   */
  offer(line: string): { repeated: number } | undefined {
    const kind = lineKind(line);
    const now = this.now();
    const seen = this.last.get(kind);
    if (seen && now - seen.since < this.windowMs) {
      seen.repeated++;
      return undefined;
    }
    this.last.delete(kind);
    // A bounded memory: the kind logged longest ago is forgotten first.
    if (this.last.size >= this.kinds) this.last.delete(this.last.keys().next().value as string);
    this.last.set(kind, { since: now, repeated: 0 });
    return { repeated: seen?.repeated ?? 0 };
  }
}
