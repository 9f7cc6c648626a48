/// <reference path="../../../../build/types/types.d.ts" />
// schema_version (spec 4.3, 9.3): the database holds no migration this binary does not know, which is
// what a downgrade leaves behind (migrations do not roll back). Pending ones are not looked at: serve
// applies them before it listens.
import type { Check } from "./check";
import { knownMigrations, unknownMigrations } from "./migrations";

export const schemaVersion: Check = ({ app }) => {
  const rows = arrayOf(new DynamicModel({ file: "" })) as { file: string }[];
  app.db().newQuery("SELECT file FROM _migrations ORDER BY applied, file").all(rows);
  const unknown = unknownMigrations(rows.map((r) => r.file), knownMigrations());
  if (unknown.length === 0) return { state: "ok" };
  return {
    state: "fail",
    detail: `the database holds migrations this binary does not know (a newer release wrote them): ${unknown.join(", ")}`,
    fix: "Run the release that applied these migrations (or newer); migrations do not roll back. Otherwise restore the backup taken before the upgrade.",
  };
};
