// audit.log_to_console: every committed audit entry as one JSON line on stdout.
//
// Bound (only while audit.log_to_console is on) to onRecordAfterCreateSuccess of the audit collection,
// which PocketBase runs after the commit, so an entry rolled back with its write is never printed. The line
// goes to the process's stdout as it is (lib/std-streams.ts).
import { recordOf } from "../lib/events";
import { stdout } from "../lib/std-streams";
import type { AuditAction } from "./collections";
import { consoleLine } from "./entries";

export function mirrorToConsole(e: core.RecordEvent): void {
  const record = recordOf(e);
  try {
    const changed: unknown = JSON.parse(record.getString("changed_fields") || "[]");
    const line = consoleLine(
      {
        collection: record.getString("collection"),
        record_id: record.getString("record_id"),
        action: record.getString("action") as AuditAction,
        actor: record.getString("actor"),
        changed_fields: Array.isArray(changed) ? changed.map(String) : [],
      },
      record.getString("created"),
    );
    stdout().write(`${line}\n`);
  } catch (err) {
    // The entry is committed; an error here would only turn the caller's successful write into an error.
    e.app.logger().warn("audit console mirror failed", "error", String(err));
  }
}
