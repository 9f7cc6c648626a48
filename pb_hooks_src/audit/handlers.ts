// What main.pb.js binds for the audit log, the activity feed and the verbose logs (platform.audit.*).
import { currentConfig } from "../config/runtime";
import { collectionNames } from "../schema/names";

export { attribute, stampActor } from "./actor";
export { auditAuth } from "./auth";
export { mirrorToConsole } from "./console";
export { RETENTION_JOB, retentionSchedule, sweepRetention } from "./retention-job";
export { logCommittedWrite, verboseCollections } from "./verbose";
export { journalCollectionCreate, journalCollectionDelete, journalCollectionUpdate, stampCollectionActor } from "./schema-journal";

/** The audit collection's configured name: the tag of the console mirror's hook. */
export function auditCollectionName(): string {
  return collectionNames(currentConfig()).audit_logs;
}

/** Whether audit.log_to_console is on: the console mirror's hook is bound only then. */
export function mirrorsToConsole(): boolean {
  return currentConfig().audit.log_to_console;
}
