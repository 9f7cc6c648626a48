// A relay's backlog: the keys changed at the site whose latest change is not yet confirmed at the hub.
// What survives a restart is not the key set but a cursor into the site bucket's own history: every
// change at or below `confirmedThrough` is confirmed at the hub (or superseded by a later change of the
// same key, which lies above it). On start the relay replays the site bucket from the cursor, so the
// backlog is rebuilt from data the leaf already stores durably; the cursor file only ever lags, which
// costs a second comparison, never a lost key. The cursor is tied to the site stream's creation time: a
// bucket deleted and created again starts over from its first message.
import { join } from "node:path";
import { readIfPresent, writeFileAtomic } from "../../lib/files";

export interface Cursor {
  /** The site stream's `created` time the sequence belongs to. */
  created: string;
  /** Every site change with a sequence at or below this is confirmed at the hub. */
  seq: number;
}

export class Backlog {
  // key -> sequence of its latest unconfirmed change; re-inserted on every change, so iteration order is
  // sequence order and the first entry is the oldest.
  private readonly pending = new Map<string, number>();
  private seen: number;
  private nonEmptySince: number | undefined;

  constructor(from: number) {
    this.seen = from;
  }

  /** A change of `key` at site sequence `seq` (delivered in sequence order). */
  add(key: string, seq: number): void {
    if (this.pending.size === 0) this.nonEmptySince = Date.now();
    this.pending.delete(key);
    this.pending.set(key, seq);
    if (seq > this.seen) this.seen = seq;
  }

  /** The hub holds `key` as of site sequence `seq`: a change above it stays pending. */
  confirm(key: string, seq: number): void {
    const at = this.pending.get(key);
    if (at !== undefined && at <= seq) this.pending.delete(key);
    if (this.pending.size === 0) this.nonEmptySince = undefined;
  }

  /** How long the backlog has not been empty (0 when it is). */
  ageMs(now = Date.now()): number {
    return this.nonEmptySince === undefined ? 0 : now - this.nonEmptySince;
  }

  get size(): number {
    return this.pending.size;
  }

  /** Up to `count` pending keys with their sequences, oldest first. */
  oldest(count: number): Array<[key: string, seq: number]> {
    const out: Array<[string, number]> = [];
    for (const entry of this.pending) {
      if (out.length === count) break;
      out.push(entry);
    }
    return out;
  }

  /** The cursor to persist: just below the oldest pending change, or everything seen when none is. */
  confirmedThrough(): number {
    for (const [, seq] of this.pending) return seq - 1;
    return this.seen;
  }
}

export const cursorFile = (stateDir: string, bucket: string) => join(stateDir, "kv", `relay-${bucket}.json`);

/** The stored cursor, if it belongs to the site stream created at `created`; else the start (0). */
export function loadCursor(path: string, created: string): { seq: number; reset: boolean } {
  const text = readIfPresent(path);
  if (text === undefined) return { seq: 0, reset: false };
  try {
    const stored = JSON.parse(text) as Partial<Cursor>;
    if (stored.created === created && typeof stored.seq === "number" && Number.isSafeInteger(stored.seq) && stored.seq >= 0) return { seq: stored.seq, reset: false };
  } catch {
    // An unreadable cursor is treated like a recreated bucket: compare every key again.
  }
  return { seq: 0, reset: true };
}

export function saveCursor(path: string, cursor: Cursor): void {
  writeFileAtomic(path, `${JSON.stringify(cursor)}\n`);
}
