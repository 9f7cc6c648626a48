// Bulk rows for ONE organization, inserted with the sqlite3 shell (100,000 API creates would measure the
// seeding instead): the large-organization datasets of list-pages.bench.ts and console.bench.ts.
import { execFileSync } from "node:child_process";
import { join } from "node:path";

export const ROWS = 100_000;

/** An INSERT of ROWS rows into `table` for the organization in temp table t_org; `values` may use i, the row number. */
export function bulkInsert(table: string, cols: string, values: string): string {
  return `
    WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i < ${ROWS - 1})
    INSERT INTO ${table} (id, organization, created, updated, ${cols})
    SELECT printf('${table.slice(0, 3)}%012d', i), (SELECT id FROM t_org), strftime('%Y-%m-%d %H:%M:%fZ', 'now'),
           strftime('%Y-%m-%d %H:%M:%fZ', 'now'), ${values}
    FROM seq;`;
}

/** ROWS Things (that cannot sign in) of the organization in t_org. */
export const THINGS_INSERT = bulkInsert("things", "name, code, active, email, password, tokenKey",
  `'Thing ' || i, printf('PG-%06d', i), 1, printf('pg-%06d@pages.thing.local', i), 'not-a-login', hex(randomblob(25))`);

/** Runs `inserts` (bulkInsert statements) for `organization` in the platform's database at `dataDir`. */
export function insertForOrganization(dataDir: string, organization: string, inserts: string[]): void {
  const sql = `
    PRAGMA busy_timeout = 10000;
    CREATE TEMP TABLE t_org AS SELECT '${organization}' AS id;
    ${inserts.join("\n")}`;
  execFileSync("sqlite3", [join(dataDir, "data.db")], { input: sql });
}
