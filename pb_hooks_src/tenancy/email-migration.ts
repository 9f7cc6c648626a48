// Migration 1764000001 (pb_migrations/): users.email becomes unique up to ASCII letter case
// (email-index.ts). A database already holding such duplicates is refused with their addresses and left
// as it was (the migration runs in a transaction): which of the accounts keeps the mailbox is the
// operator's call, not the migration's.
import { indexesOf, setIndexes } from "../schema/indexes";
import type { CollectionNames } from "../schema/names";
import { duplicateRefusal, withCaseInsensitiveEmail, withoutCaseInsensitiveEmail } from "./email-index";

export function requireUniqueMailboxes(app: CoreApp, n: CollectionNames): void {
  const users = app.findCollectionByNameOrId(n.users);
  const refusal = duplicateRefusal(users.name, caseDuplicates(app, users.name));
  if (refusal) throw new Error(refusal);
  setIndexes(users, withCaseInsensitiveEmail(indexesOf(users), users.name));
  app.save(users);
}

export function allowCaseVariantMailboxes(app: CoreApp, n: CollectionNames): void {
  const users = app.findCollectionByNameOrId(n.users);
  setIndexes(users, withoutCaseInsensitiveEmail(indexesOf(users), users.name));
  app.save(users);
}

/** Groups of addresses equal under NOCASE, each sorted; the groups in order of their first address. */
function caseDuplicates(app: CoreApp, table: string): string[][] {
  const rows = arrayOf(new DynamicModel({ emails: "" })) as { emails: string }[];
  app
    .db()
    .newQuery(
      `SELECT json_group_array(email) AS emails FROM (SELECT email FROM {{${table}}} WHERE email != '' ORDER BY email) ` +
        `GROUP BY email COLLATE NOCASE HAVING COUNT(*) > 1 ORDER BY MIN(email)`,
    )
    .all(rows);
  return rows.map((row) => JSON.parse(row.emails) as string[]);
}
