// Audit retention decisions (pure): what a sweep removes, from audit.retention.* or a command's flags.
import { parseDuration } from "../../common/config/duration";
import type { PlatformConfig } from "../config/types";

export type RetentionSettings = Pick<PlatformConfig["audit"]["retention"], "max_age" | "max_records">;

export interface RetentionPlan {
  /** Entries created before this instant (PocketBase's datetime text, which sorts like time) go. */
  cutoff?: string;
  /** The newest this many entries stay; older ones go. */
  keep?: number;
}

/**
 * An empty plan when both limits are off: max_age empty, max_records 0. An age reaching back before
 * 1970 keeps every entry by age (no cutoff): a date that far out is no date at all, and threw.
 */
export function retentionPlan(settings: RetentionSettings, now: Date): RetentionPlan {
  const plan: RetentionPlan = {};
  const cutoffMs = settings.max_age === "" ? -1 : now.getTime() - parseDuration(settings.max_age);
  if (cutoffMs >= 0) plan.cutoff = dbTime(new Date(cutoffMs));
  if (settings.max_records > 0) plan.keep = settings.max_records;
  return plan;
}

export function isEmptyPlan(plan: RetentionPlan): boolean {
  return plan.cutoff === undefined && plan.keep === undefined;
}

/** How many of `total` entries a count limit removes. */
export function excess(total: number, keep: number | undefined): number {
  return keep === undefined ? 0 : Math.max(0, total - keep);
}

/** PocketBase stores datetimes as `2006-01-02 15:04:05.000Z` (UTC). */
export function dbTime(date: Date): string {
  return date.toISOString().replace("T", " ");
}

/**
 * `audit prune --max-age D --max-records N`: each given flag replaces its configured limit for one run
 * (`--max-age ""` and an absent flag keep the configuration). Checked like the configuration is.
 */
export function withOverrides(settings: RetentionSettings, flags: { maxAge: string; maxRecords: string }): RetentionSettings {
  const maxAge = flags.maxAge.trim();
  const maxRecords = flags.maxRecords.trim();
  if (maxAge !== "" && !(parseDuration(maxAge) > 0)) throw new Error(`--max-age must be greater than zero, got ${JSON.stringify(maxAge)}`);
  if (maxRecords !== "" && !/^\d+$/.test(maxRecords)) throw new Error(`--max-records must be a whole number, got ${JSON.stringify(maxRecords)}`);
  return {
    max_age: maxAge !== "" ? maxAge : settings.max_age,
    max_records: maxRecords !== "" ? Number(maxRecords) : settings.max_records,
  };
}
