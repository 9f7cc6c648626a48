// The database collector's query (spec 4.3: platform_records, platform_inactive_records,
// platform_bus_users_revoked). Pure: the SQL and the reading of its one row. One statement answers every
// count, so a scrape costs one round trip to SQLite however many collections there are.
import type { CollectionKey, CollectionNames } from "../../schema/names";
import { MAX_ACCOUNT_JWT_BYTES } from "../../bus/claims";

/** Upper bounds (bytes) of the account claim size buckets: a quarter, half and all of what the bus takes. */
export const CLAIM_SIZE_BOUNDS: readonly number[] = [16_384, 65_536, MAX_ACCOUNT_JWT_BYTES / 4, MAX_ACCOUNT_JWT_BYTES / 2, MAX_ACCOUNT_JWT_BYTES];

export interface ClaimSizes {
  /** Accounts whose claim is at most each bound of CLAIM_SIZE_BOUNDS (cumulative, as histogram buckets are). */
  atMost: number[];
  accounts: number;
  largestBytes: number;
}

export interface RecordCounts {
  /** Per collection, by canonical name (the label value), in the order of CollectionNames. */
  records: Array<[CollectionKey, number]>;
  inactiveThings: number;
  revokedBusUsers: number;
  claimSizes: ClaimSizes;
}

const INACTIVE = "inactive_things";
const REVOKED = "revoked_bus_users";
const CLAIM_SIZES = "account_claim_sizes";

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
  // The account claims' sizes: per bound the accounts at or under it, then the count and the largest.
  const size = "length(COALESCE([[jwt]], ''))";
  pairs.push(
    `'${CLAIM_SIZES}', (SELECT json_array(${CLAIM_SIZE_BOUNDS.map((bound) => `COALESCE(SUM(${size} <= ${bound}), 0)`).join(", ")}, ` +
      `COUNT(*), COALESCE(MAX(${size}), 0)) FROM {{${names.bus_accounts}}})`,
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
  const records = (Object.keys(names) as CollectionKey[]).map((key): [CollectionKey, number] => [key, count(key)]);
  const [inactiveThings, revokedBusUsers] = [count(INACTIVE), count(REVOKED)];
  const sizes = parsed[CLAIM_SIZES];
  if (!Array.isArray(sizes) || sizes.length !== CLAIM_SIZE_BOUNDS.length + 2 || !sizes.every((v) => typeof v === "number")) {
    throw new Error(`database collector: no count for ${CLAIM_SIZES}`);
  }
  const figures = sizes as number[];
  return {
    records,
    inactiveThings,
    revokedBusUsers,
    claimSizes: { atMost: figures.slice(0, CLAIM_SIZE_BOUNDS.length), accounts: figures[CLAIM_SIZE_BOUNDS.length], largestBytes: figures[CLAIM_SIZE_BOUNDS.length + 1] },
  };
}

/** The files platform_database_size_bytes adds up, relative to the data directory. */
export const DATABASE_FILES: readonly string[] = ["data.db", "data.db-wal", "data.db-shm"];
