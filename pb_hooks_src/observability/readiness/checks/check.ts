/// <reference path="../../../../build/types/types.d.ts" />
// What a readiness check is: a function of the running app and its configuration that says how things
// stand, first-hand. Thrown errors are panics: the runner turns them into fail (report.ts).
import type { PlatformConfig } from "../../../config/types";
import { hasField } from "../../../lib/collections";
import type { CheckState } from "../../../../common/readiness/states";

/** Every state but ok names what was found and how to fix it (spec 2.3: a command where one exists, else prose). */
export type CheckOutcome = { state: "ok"; detail?: string } | { state: Exclude<CheckState, "ok">; detail: string; fix: string };

export interface CheckContext {
  app: CoreApp;
  config: PlatformConfig;
  nowMs: number;
  /** Bounds any wait of the check (readiness.timeout): the prober gives up on it then anyway. */
  timeoutMs: number;
}

export type Check = (ctx: CheckContext) => CheckOutcome;

/** The documented launcher (README): fixes that are commands name it. */
export const LAUNCHER = "scripts/platform";

/** The number in the first row of a `SELECT COUNT(*) AS n ...`. */
export function count(app: CoreApp, sql: string, params: Record<string, unknown> = {}): number {
  const row = new DynamicModel({ n: 0 }) as { n: number };
  app.db().newQuery(sql).bind(params).one(row);
  return row.n;
}

/** Whether a lookup failed for want of a row (Go's sql.ErrNoRows), not because the database failed. */
export function isNoRows(err: unknown): boolean {
  return String(err instanceof Error ? err.message : err).includes("no rows in result set");
}

/**
 * What the database lacks of the collections and fields a check reads, or undefined. A database without
 * the platform schema is the schema check's failure; the other checks then say so instead of crashing.
 */
export function schemaGap(app: CoreApp, needs: Readonly<Record<string, readonly string[]>>): string | undefined {
  for (const [name, fields] of Object.entries(needs)) {
    let collection: core.Collection;
    try {
      collection = app.findCollectionByNameOrId(name);
    } catch (err) {
      if (!isNoRows(err)) throw err;
      return `collection ${name} does not exist (see schema)`;
    }
    const absent = fields.find((field) => !hasField(collection, field));
    if (absent) return `collection ${name} has no field ${absent} (see schema)`;
  }
  return undefined;
}

export const MIGRATE_FIX = `${LAUNCHER} migrate up`;
