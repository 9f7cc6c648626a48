/**
 * Runs `work` in one database transaction and rethrows its own error object. An exception crossing
 * runInTransaction becomes a Go error and loses its JS class, so the original is kept aside.
 */
export function transaction<T>(app: CoreApp, work: (tx: CoreApp) => T): T {
  let failure: unknown;
  let result: T | undefined;
  try {
    app.runInTransaction((tx) => {
      try {
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
