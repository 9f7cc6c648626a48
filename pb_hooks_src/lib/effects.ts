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
