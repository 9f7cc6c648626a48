// Runs the retention sweep with the configuration (cron) or with a command's overrides (`audit prune`).
import { currentConfig } from "../config/runtime";
import { collectionNames } from "../schema/names";
import { isEmptyPlan, retentionPlan, type RetentionSettings } from "./retention";
import { sweepAuditLog, type SweepResult } from "./sweep";
import { writeRefusal } from "../replication/lease";

/** The cron job id; cronAdd replaces a job registered under the same id. */
export const RETENTION_JOB = "audit-retention";

/** audit.retention.interval, for cronAdd in main.pb.ts. */
export function retentionSchedule(): string {
  return currentConfig().audit.retention.interval;
}

/** Nothing is swept (and undefined returned) when both limits are off. */
export function pruneAuditLog(app: CoreApp, settings: RetentionSettings = currentConfig().audit.retention): SweepResult | undefined {
  const plan = retentionPlan(settings, new Date());
  if (isEmptyPlan(plan)) return undefined;
  return sweepAuditLog(app, collectionNames(currentConfig()).audit_logs, plan);
}

/** The cron handler; a control plane without the write lease leaves the log to the primary. */
export function sweepRetention(): void {
  if (writeRefusal($app)) return;
  const result = pruneAuditLog($app);
  if (result) $app.logger().info("audit retention sweep", "byAge", result.byAge, "byCount", result.byCount);
}
