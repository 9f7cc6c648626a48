// One database transaction that takes SQLite's write lock at its first statement, as BEGIN IMMEDIATE does.
//
// PocketBase opens deferred transactions, and ours read before they write (the row as committed, the
// organization). When another connection commits between that first read and the first write, SQLite
// refuses the upgrade with SQLITE_BUSY_SNAPSHOT (517): no busy handler runs, PocketBase's lock retry
// re-runs the statement in the stale snapshot for ~7.4 s, and the write fails while every other write
// waits behind it. Litestream is such a connection (its checkpoint commits to _litestream_seq), so with
// replication on this happened at each checkpoint under steady writes. A write as the first statement
// waits in the busy handler instead, and then reads the newest snapshot (docs/litestream.md).

/** A statement that takes the write lock and changes nothing: no row matches. */
const TAKE_WRITE_LOCK = "UPDATE _params SET value = value WHERE 0";

/**
 * Runs `work` in one database transaction and rethrows its own error object. An exception crossing
 * runInTransaction becomes a Go error and loses its JS class, so the original is kept aside. Inside an
 * enclosing transaction this joins it, and takes the lock there if that one had not yet.
 */
export function transaction<T>(app: CoreApp, work: (tx: CoreApp) => T): T {
  let failure: unknown;
  let result: T | undefined;
  try {
    app.runInTransaction((tx) => {
      try {
        takeWriteLock(tx);
        result = work(tx);
      } catch (err) {
        failure = err;
        throw err;
      }
    });
  } catch (err) {
    throw failure ?? err;
  }
  return result as T;
}

/**
 * For a transaction PocketBase opened (a migration's): takes the write lock now, before its reads, for
 * the reason above. A migration run beside a serving control plane met SQLITE_BUSY_SNAPSHOT otherwise.
 */
export function takeWriteLock(tx: CoreApp): void {
  tx.db().newQuery(TAKE_WRITE_LOCK).execute();
}
