// The 100,000-things dataset of the benchmarks: organizations and one member each through the API, the
// things bulk-inserted with the sqlite3 shell (100,000 API creates would measure the seeding instead).
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import type { Platform } from "../e2e/harness/platform";
import { createMember } from "../e2e/harness/world";

export const ORGANIZATIONS = 100;
export const THINGS = 100_000;

/** Seeds the dataset into a running platform; returns the members' e-mail addresses, one per organization. */
export async function seedThings(platform: Platform): Promise<string[]> {
  const su = await platform.superuser();
  const members: string[] = [];
  for (let i = 0; i < ORGANIZATIONS; i++) {
    const org = await su.collection("organizations").create({ name: `Bench ${i}`, code: `bench-${i}`, active: true });
    members.push((await createMember(su, org.id, "member", `bench-member-${i}@example.test`)).email as string);
  }
  const sql = `
    PRAGMA busy_timeout = 10000;
    CREATE TEMP TABLE o AS SELECT row_number() OVER (ORDER BY code) - 1 AS n, id, code FROM organizations WHERE code LIKE 'bench-%';
    WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i < ${THINGS - 1})
    INSERT INTO things (id, name, code, organization, active, email, password, tokenKey, created, updated)
    SELECT printf('bench%010d', i), 'Thing ' || i, printf('BN-%06d', i), o.id, 1,
           printf('BN-%06d@', i) || o.code || '.thing.local', 'not-a-login', hex(randomblob(25)),
           strftime('%Y-%m-%d %H:%M:%fZ', 'now'), strftime('%Y-%m-%d %H:%M:%fZ', 'now')
    FROM seq JOIN o ON o.n = seq.i % ${ORGANIZATIONS};`;
  execFileSync("sqlite3", [join(platform.dataDir, "data.db")], { input: sql });
  return members;
}
