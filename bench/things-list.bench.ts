// One page of things listed as a member, with 100,000 things across 100 organizations (platform-core
// issue, item 12). Organizations and members go through the API; the things are bulk-inserted with the
// sqlite3 shell, since 100,000 API creates would measure the seeding rather than the listing.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { startPlatform } from "../e2e/harness/platform";
import { client, createMember, PASSWORD } from "../e2e/harness/world";
import { measure, report } from "./stats";

const ORGANIZATIONS = 100;
const THINGS = 100_000;

const platform = await startPlatform();
try {
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

  const member = client(platform.url);
  await member.collection("users").authWithPassword(members[0], PASSWORD);
  const page = await member.collection("things").getList(1, 30);
  if (page.totalItems !== THINGS / ORGANIZATIONS) throw new Error(`expected ${THINGS / ORGANIZATIONS} things, saw ${page.totalItems}`);

  report("things: one page (30) as a member, 100k things / 100 orgs", await measure(200, 20, () => member.collection("things").getList(1, 30)));
  report("things: one page sorted by -created, skipTotal", await measure(200, 20, () => member.collection("things").getList(1, 30, { sort: "-created", skipTotal: true })));
} finally {
  await platform.stop();
}
