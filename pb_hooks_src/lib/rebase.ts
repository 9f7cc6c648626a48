// A write prepared from a stale copy must not revert what a concurrent writer committed meanwhile.
import { fieldsOf } from "./collections";

/**
 * Brings every field this write left as it loaded it up to the row as committed (read inside the write's
 * transaction), so that, for example, a token key refreshed by a concurrent deactivation is not written
 * back to its old value. Fields the write changed keep the write's values (last writer wins on them), so
 * the outcome is the one of the writes applied one after the other in commit order. `text` compares raw
 * values (PocketBase's toString in goja).
 */
export function rebaseOnCommitted(record: core.Record, committed: core.Record, text: (raw: unknown) => string = (raw) => toString(raw)): void {
  const loaded = record.original();
  for (const field of fieldsOf(record.collection())) {
    if (field.type() === "autodate") continue;
    const name = field.getName();
    const base = text(loaded.getRaw(name));
    if (text(record.getRaw(name)) !== base) continue;
    const theirs = committed.getRaw(name);
    if (text(theirs) !== base) record.setRaw(name, theirs);
  }
}
