/// <reference path="../../../../build/types/types.d.ts" />
// database (spec 4.3): the embedded database answers a trivial SELECT. It reads the schema table, so a
// database that another process holds locked cannot answer it (the wait ends at the probe deadline).
import type { Check } from "./check";
import { count } from "./check";

export const database: Check = ({ app }) => {
  try {
    count(app, "SELECT COUNT(*) AS n FROM sqlite_master");
    return { state: "ok" };
  } catch (err) {
    return {
      state: "fail",
      detail: `the database does not answer: ${err instanceof Error ? err.message : String(err)}`,
      fix: `Check that ${app.dataDir()} is writable and that no other process holds its data.db (stop the other instance).`,
    };
  }
};
