// The database collector's query (spec 4.3: platform_records, platform_inactive_records,
// platform_bus_users_revoked). Pure: the SQL and the reading of its one row. One statement answers every
// count, so a scrape costs one round trip to SQLite however many collections there are.
import type { CollectionKey, CollectionNames } from "../../schema/names";

export interface RecordCounts {
  /** Per collection, by canonical name (the label value), in the order of CollectionNames. */
  records: Array<[CollectionKey, number]>;
  inactiveThings: number;
  revokedBusUsers: number;
}

const INACTIVE = "inactive_things";
const REVOKED = "revoked_bus_users";

/**
 * One row, one column `counts`: a JSON object of every count. Revoked users are the user keys (nkeys
 * start with "U") on any account's revocation list, bus_accounts.revocations being a map of user public key
 * to cutoff; this counts revoked keys, which includes the old keys of users whose credentials were rotated
 * after a leak. Table and column names go through dbx quoting ({{ }} and [[ ]]).
 */
export function countsQuery(names: CollectionNames): string {
  const keys = Object.keys(names) as CollectionKey[];
  const pairs = keys.map((key) => `'${key}', (SELECT COUNT(*) FROM {{${names[key]}}})`);
  pairs.push(`'${INACTIVE}', (SELECT COUNT(*) FROM {{${names.things}}} WHERE COALESCE([[active]], 0) = 0)`);
  pairs.push(
    `'${REVOKED}', (SELECT COUNT(*) FROM {{${names.bus_accounts}}} AS a, ` +
      `json_each(CASE WHEN json_valid(a.[[revocations]]) AND json_type(a.[[revocations]]) = 'object' THEN a.[[revocations]] ELSE '{}' END) AS r ` +
      `WHERE r.key LIKE 'U%')`,
  );
  return `SELECT json_object(${pairs.join(", ")}) AS counts`;
}

/** Reads the `counts` column; throws when a count is missing (the collector then fails as a whole). */
export function parseCounts(names: CollectionNames, countsJson: string): RecordCounts {
  const parsed = JSON.parse(countsJson) as Record<string, unknown>;
  const count = (key: string): number => {
    const value = parsed[key];
    if (typeof value !== "number") throw new Error(`database collector: no count for ${key}`);
    return value;
  };
  return {
    records: (Object.keys(names) as CollectionKey[]).map((key) => [key, count(key)]),
    inactiveThings: count(INACTIVE),
    revokedBusUsers: count(REVOKED),
  };
}

/** The files platform_database_size_bytes adds up, relative to the data directory. */
export const DATABASE_FILES: readonly string[] = ["data.db", "data.db-wal", "data.db-shm"];
