/// <reference path="../../../../build/types/types.d.ts" />
// database (spec 4.3): the embedded database answers a trivial SELECT, and takes a write. The write
// changes nothing (UPDATE ... WHERE 0) but needs the write lock, so an unwritable data directory or
// another process holding the database shows here; a wait for the lock ends at the probe's deadline.
import { count, type Check } from "./check";

export const database: Check = ({ app }) => {
  try {
    count(app, "SELECT COUNT(*) AS n FROM sqlite_master");
    app.runInTransaction((tx) => {
      tx.db().newQuery("UPDATE _params SET id = id WHERE 0").execute();
    });
    return { state: "ok" };
  } catch (err) {
    return {
      state: "fail",
      detail: `the database does not answer: ${err instanceof Error ? err.message : String(err)}`,
      fix: `Check that ${app.dataDir()} is writable and that no other process holds its data.db (stop the other instance).`,
    };
  }
};
