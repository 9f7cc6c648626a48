// One transaction for a write and the entries that describe it: both are kept, or neither.
import { transaction } from "../lib/transaction";

/**
 * Runs `work` (which calls e.next(), the write itself) inside a transaction. PocketBase performs the
 * write with `e.app`, so the event points at the transaction meanwhile, as PocketBase's own
 * onRecordDeleteExecute does. Inside an enclosing transaction this joins it.
 */
export function inOneTransaction(e: { app: core.App }, work: (tx: CoreApp) => void): void {
  const outer = e.app;
  transaction(outer, (tx) => {
    // The transaction app is the same Go type as e.app; the generated CoreApp type only omits hooks.
    e.app = tx as core.App;
    try {
      work(tx);
    } finally {
      e.app = outer;
    }
  });
}
