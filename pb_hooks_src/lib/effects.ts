/**
 * What a domain does around one record write, inside the write's transaction: `before` runs just before
 * the row is written (it may still set fields of the record), `after` just after (it may write other
 * records). Either failing rolls the whole write back.
 */
export interface WriteEffects {
  before?(tx: CoreApp): void;
  after?(tx: CoreApp): void;
}

export type WriteAction = "create" | "update" | "delete";

/** Several domains' effects as one, run in the given order (all inside the same transaction). */
export function combineEffects(...parts: (WriteEffects | undefined)[]): WriteEffects | undefined {
  const present = parts.filter((p): p is WriteEffects => p !== undefined);
  if (present.length <= 1) return present[0];
  return {
    before: (tx) => present.forEach((p) => p.before?.(tx)),
    after: (tx) => present.forEach((p) => p.after?.(tx)),
  };
}
