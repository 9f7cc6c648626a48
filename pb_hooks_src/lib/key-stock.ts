/// <reference path="../../build/types/types.d.ts" />
// Key pairs made before a write's transaction. Making one is a sidecar round trip (~2 ms) that depends on
// nothing the transaction reads, yet the record hook that needs one (a bus user's nkey) runs inside the
// transaction, holding the database's only write connection meanwhile. (An overlay host's key pair comes
// with its certificate, signed before the transaction: overlay/presigned-hosts.ts.) A
// route about to create such a record adds one key pair to a stock in $app.store() first; the hook takes
// one from there and makes its own only when the stock is empty (any other writer, or a stock emptied by
// concurrent writes). A key pair is handed out once, taken under the store's lock, and lives only in this
// process's memory, as it did between the sidecar's answer and the save.

/** What the stock needs of $app.store(): its values under one key, and an update under its lock. */
export interface StockStore {
  get(key: string): unknown;
  setFunc(key: string, update: (old: unknown) => unknown): void;
}

export interface KeyStock<K> {
  /**
   * Outside a transaction: one more key pair for a write about to need it, unless STOCK_CAP are kept.
   * Never throws: when none can be made, the hook's own attempt fails as it would have.
   */
  addOne(): void;
  /** A stocked key pair, or a new one when none is left. */
  take(): K;
}

/** Key pairs kept per kind at most: requests that fail after adding one leave it for the next. */
export const STOCK_CAP = 32;

const appStore = (): StockStore => $app.store() as unknown as StockStore;

// Kept as JSON text: a JS array put in the store would come back as Go values.
const listOf = <K>(stored: unknown): K[] => (typeof stored === "string" && stored ? (JSON.parse(stored) as K[]) : []);

export function keyStock<K>(name: string, make: (count: number) => K[], store: () => StockStore = appStore): KeyStock<K> {
  const key = `platform.keyStock.${name}`;
  return {
    addOne() {
      if (listOf<K>(store().get(key)).length >= STOCK_CAP) return;
      let made: K;
      try {
        [made] = make(1);
      } catch {
        return; // the hook makes its own and reports the failure where it always did, after the write's checks
      }
      store().setFunc(key, (old) => {
        const list = listOf<K>(old);
        if (list.length < STOCK_CAP) list.push(made);
        return JSON.stringify(list);
      });
    },
    take() {
      let taken: K | undefined;
      store().setFunc(key, (old) => {
        const list = listOf<K>(old);
        taken = list.shift();
        return JSON.stringify(list);
      });
      return taken ?? make(1)[0];
    },
  };
}
