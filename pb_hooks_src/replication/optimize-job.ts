// PocketBase's daily maintenance, without the checkpoint Litestream owns (replication.enabled under serve).
//
// The stock job (`__pbDBOptimize__`, midnight) runs `PRAGMA wal_checkpoint(TRUNCATE)` on data.db, then
// `PRAGMA optimize`. Under Litestream that TRUNCATE cannot pass Litestream's read transaction: it waits out
// PocketBase's 10 s busy timeout while every write waits behind it, and when it does reset the WAL,
// Litestream answers with a full copy of the database. Litestream checkpoints data.db itself (PASSIVE, at
// 1,000 pages or each minute), so the job keeps the rest: the auxiliary database's checkpoint (not
// replicated) and the planner statistics.

/** PocketBase's own job id: cronAdd under it replaces the stock job. */
export const POCKETBASE_OPTIMIZE_JOB = "__pbDBOptimize__";
/** The stock job's schedule, kept. */
export const POCKETBASE_OPTIMIZE_SCHEDULE = "0 0 * * *";

export function optimizeWithoutCheckpoint(app: CoreApp): void {
  console.log("replication: daily maintenance without data.db's checkpoint (Litestream checkpoints it)");
  for (const [what, run] of [
    ["the auxiliary database's checkpoint", () => app.auxNonconcurrentDB().newQuery("PRAGMA wal_checkpoint(TRUNCATE)").execute()],
    ["PRAGMA optimize", () => app.nonconcurrentDB().newQuery("PRAGMA optimize").execute()],
  ] as const) {
    try {
      run();
    } catch (err) {
      console.log(`replication: the daily maintenance's ${what} failed: ${String(err)}`);
    }
  }
}
