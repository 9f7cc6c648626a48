// Row counts per organization, kept by SQLite triggers, for the totals of list pages (tenancy/list-totals.ts).
// PocketBase answers a page's total with COUNT(DISTINCT _rowid_) over every row the list rule admits:
// ~15 ms at 100,000 rows of one organization, whatever the page. A count kept in the same statement as
// each insert, delete or move answers it with one lookup (docs/performance.md "List pages", point 6).
// Triggers rather than record hooks, so that every writer keeps the count: PocketBase's cascades, a
// SuperUser's edit, the sqlite3 shell.
import type { CollectionKey, CollectionNames } from "./names";

/**
 * The collections whose unfiltered pages take their total from the kept count. Each one's list rule is
 * memberListing alone (schema/row-counts.test.ts checks it), so a user sees every row of its active
 * organization or none, and the organization's count is that user's total.
 */
export const COUNTED_LISTS: readonly CollectionKey[] = ["things", "locations", "bus_users", "overlay_hosts"];

/** A plain table: PocketBase refuses a collection named after an existing table, so no collection shadows it. */
export const ROW_COUNTS_TABLE = "_org_row_counts";

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS ${ROW_COUNTS_TABLE} (
  collection TEXT NOT NULL,
  organization TEXT NOT NULL,
  total INTEGER NOT NULL,
  PRIMARY KEY (collection, organization)
) WITHOUT ROWID`;

const TRIGGERS = ["insert", "delete", "move"] as const;

function triggerName(collectionId: string, suffix: (typeof TRIGGERS)[number]): string {
  return `_org_rows_${collectionId}_${suffix}`;
}

function dropTriggerStatements(collectionId: string): string[] {
  return TRIGGERS.map((suffix) => `DROP TRIGGER IF EXISTS ${triggerName(collectionId, suffix)}`);
}

/**
 * The statements that (re)create the triggers of `table` and recount it. Counts are keyed by collection
 * id, which a rename of the collection keeps (SQLite carries the triggers over to the renamed table).
 */
export function rowCountStatements(table: string, collectionId: string): string[] {
  // PocketBase allows only word characters in both; anything else here is a bug, not input.
  if (!/^\w+$/.test(table) || !/^\w+$/.test(collectionId)) throw new Error(`not a collection: ${table} (${collectionId})`);
  const key = `'${collectionId}'`;
  const add = (organization: string) =>
    `INSERT INTO ${ROW_COUNTS_TABLE} (collection, organization, total) VALUES (${key}, ${organization}, 1)
     ON CONFLICT (collection, organization) DO UPDATE SET total = total + 1;`;
  const remove = (organization: string) =>
    `UPDATE ${ROW_COUNTS_TABLE} SET total = total - 1 WHERE collection = ${key} AND organization = ${organization};`;
  const trigger = (suffix: (typeof TRIGGERS)[number]) => triggerName(collectionId, suffix);
  const t = `"${table}"`;
  return [
    ...dropTriggerStatements(collectionId),
    `CREATE TRIGGER ${trigger("insert")} AFTER INSERT ON ${t} BEGIN ${add("NEW.organization")} END`,
    `CREATE TRIGGER ${trigger("delete")} AFTER DELETE ON ${t} BEGIN ${remove("OLD.organization")} END`,
    `CREATE TRIGGER ${trigger("move")} AFTER UPDATE OF organization ON ${t}
     WHEN OLD.organization IS NOT NEW.organization BEGIN ${remove("OLD.organization")} ${add("NEW.organization")} END`,
    `DELETE FROM ${ROW_COUNTS_TABLE} WHERE collection = ${key}`,
    `INSERT INTO ${ROW_COUNTS_TABLE} (collection, organization, total)
     SELECT ${key}, organization, COUNT(*) FROM ${t} GROUP BY organization`,
  ];
}

/**
 * Creates the counts table and, for every counted collection, its triggers and a fresh count, inside the
 * migration's transaction: the count starts exact and every later write keeps it so.
 */
export function keepRowCounts(app: CoreApp, n: CollectionNames): void {
  const run = (sql: string) => app.db().newQuery(sql).execute();
  run(CREATE_TABLE);
  for (const key of COUNTED_LISTS) {
    const collection = app.findCollectionByNameOrId(n[key]);
    rowCountStatements(collection.name, collection.id).forEach(run);
  }
}

/**
 * For a rollback of the whole schema, before any column goes: SQLite refuses to drop a column that a
 * trigger reads.
 */
export function dropRowCounts(app: CoreApp, n: CollectionNames): void {
  const run = (sql: string) => app.db().newQuery(sql).execute();
  for (const key of COUNTED_LISTS) dropTriggerStatements(app.findCollectionByNameOrId(n[key]).id).forEach(run);
  run(`DROP TABLE IF EXISTS ${ROW_COUNTS_TABLE}`);
}
