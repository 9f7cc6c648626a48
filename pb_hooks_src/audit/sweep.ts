// The retention sweep over the audit table. Plain SQL: pruning is not an audited write (the audit log
// does not audit itself), and deleting in batches of separate statements keeps each write lock short
// on a large table instead of holding it for one huge delete.
import { excess, type RetentionPlan } from "./retention";

const BATCH = 1000;

export interface SweepResult {
  byAge: number;
  byCount: number;
}

/** `table` is a configured collection name, checked against ^[a-z_][a-z0-9_]*$ at startup. */
export function sweepAuditLog(app: CoreApp, table: string, plan: RetentionPlan): SweepResult {
  const result: SweepResult = { byAge: 0, byCount: 0 };
  const { cutoff, keep } = plan;
  if (cutoff !== undefined) {
    const older = `SELECT [[id]] FROM {{${table}}} WHERE [[created]] < {:cutoff} LIMIT {:limit}`;
    result.byAge = deleteInBatches(app, table, older, { cutoff }, Number.POSITIVE_INFINITY);
  }
  if (keep !== undefined) {
    const oldest = `SELECT [[id]] FROM {{${table}}} ORDER BY [[created]] ASC, [[id]] ASC LIMIT {:limit}`;
    result.byCount = deleteInBatches(app, table, oldest, {}, excess(app.countRecords(table), keep));
  }
  return result;
}

/** Deletes up to `limit` rows chosen by `select` (which takes {:limit}), BATCH at a time. */
function deleteInBatches(app: CoreApp, table: string, select: string, params: Record<string, string>, limit: number): number {
  let deleted = 0;
  while (deleted < limit) {
    const size = Math.min(BATCH, limit - deleted);
    const affected = app
      .db()
      .newQuery(`DELETE FROM {{${table}}} WHERE [[id]] IN (${select})`)
      .bind({ ...params, limit: size })
      .execute()
      .rowsAffected();
    deleted += affected;
    if (affected < size) break;
  }
  return deleted;
}
