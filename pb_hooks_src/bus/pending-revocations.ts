// Revocations committed before their claim is signed (deferred-signing.ts; docs/bus.md "Deferred
// signing"). On an account whose claim is large, a revocation writes one small row here, in its own
// transaction, instead of the account's row of several hundred KB; once the write has answered, the sidecar
// asks back (sidecar/deferred-claims.ts) and the account is saved, which takes every pending entry into its
// list, signs the claim and pushes it (accounts.ts#signForSave). Any other save of the account takes them
// too, so no claim is ever signed without them, and the minute's reconcile takes what a crash left.
//
// A plain table, not a collection: nothing but these hooks reads or writes it, and PocketBase refuses a
// collection named after an existing table.
import { badRequest } from "../lib/errors";
import type { CollectionNames } from "../schema/names";
import { accountClaimSizeProblem } from "./claims";
import { ENTRY_BYTES_SQL, PENDING_REVOCATIONS_TABLE, predictedClaimLength, signedAfterWrite } from "./deferred-signing";
import { withRevocation } from "./revocation-text";

export function keepPendingRevocationsTable(app: CoreApp): void {
  app.db()
    .newQuery(
      `CREATE TABLE IF NOT EXISTS ${PENDING_REVOCATIONS_TABLE} (
        account TEXT NOT NULL,
        key TEXT NOT NULL,
        cutoff INTEGER NOT NULL,
        PRIMARY KEY (account, key)
      ) WITHOUT ROWID`,
    )
    .execute();
}

export function dropPendingRevocationsTable(app: CoreApp): void {
  app.db().newQuery(`DROP TABLE IF EXISTS ${PENDING_REVOCATIONS_TABLE}`).execute();
}

export interface PendingRevocation {
  publicKey: string;
  cutoff: number;
}

/**
 * Inside a write's transaction: records the revocation as pending when the organization's account claim
 * is large and the sidecar will have it signed after the commit; false when the caller applies it to the
 * account now. Refused (400) when the claim, with every pending entry, could not reach the bus.
 */
export function queueRevocation(tx: CoreApp, n: CollectionNames, organization: string, revocation: PendingRevocation): boolean {
  if (!$os.args.includes("serve")) return false;
  const account = claimOf(tx, n, organization);
  if (!account || !signedAfterWrite(account.claimLength)) return false;
  tx.db()
    .newQuery(
      `INSERT INTO ${PENDING_REVOCATIONS_TABLE} (account, key, cutoff) VALUES ({:account}, {:key}, {:cutoff})
       ON CONFLICT (account, key) DO UPDATE SET cutoff = MAX(cutoff, excluded.cutoff)`,
    )
    .bind({ account: account.id, key: revocation.publicKey, cutoff: revocation.cutoff })
    .execute();
  const problem = accountClaimSizeProblem(predictedClaimLength(account.claimLength, pendingBytes(tx, account.id)));
  if (problem) throw badRequest(problem);
  return true;
}

/**
 * Inside an account's save: its list's text with every pending entry taken in (each raising its key's
 * cutoff, or appended), and the pending rows gone. `stored` is returned as it is when there are none.
 */
export function takePendingRevocations(tx: CoreApp, accountId: string, stored: string): string {
  const pending = pendingOf(tx, accountId);
  if (pending.length === 0) return stored;
  let text = stored;
  for (const entry of pending) text = withRevocation(text, entry.publicKey, entry.cutoff) ?? text;
  dropPendingRevocations(tx, accountId);
  return text;
}

/** The key's pending cutoff (0: none), which a credential minted for it must be issued after. */
export function pendingCutoff(app: CoreApp, accountId: string, key: string): number {
  const rows = arrayOf(new DynamicModel({ cutoff: 0 })) as { cutoff: number }[];
  app.db()
    .newQuery(`SELECT cutoff FROM ${PENDING_REVOCATIONS_TABLE} WHERE account = {:account} AND key = {:key}`)
    .bind({ account: accountId, key })
    .all(rows);
  return rows[0]?.cutoff ?? 0;
}

/** Whether the account has entries waiting to join its list. */
export function hasPendingRevocations(app: CoreApp, accountId: string): boolean {
  return pendingOf(app, accountId, 1).length > 0;
}

/** Drops the entries of an account that no longer exists: nothing is left for them to refuse. */
export function dropPendingRevocations(app: CoreApp, accountId: string): void {
  app.db().newQuery(`DELETE FROM ${PENDING_REVOCATIONS_TABLE} WHERE account = {:account}`).bind({ account: accountId }).execute();
}

/** The accounts with pending entries, for the minute's reconcile. */
export function accountsWithPendingRevocations(app: CoreApp): string[] {
  const rows = arrayOf(new DynamicModel({ account: "" })) as { account: string }[];
  app.db().newQuery(`SELECT DISTINCT account FROM ${PENDING_REVOCATIONS_TABLE}`).all(rows);
  return rows.map((row) => row.account);
}

/** The organization's account that has pending entries, if it has: one indexed lookup. */
export function accountWithPending(app: CoreApp, n: CollectionNames, organization: string): string | undefined {
  const rows = arrayOf(new DynamicModel({ id: "" })) as { id: string }[];
  app.db()
    .newQuery(
      `SELECT a.[[id]] FROM {{${n.bus_accounts}}} AS a WHERE a.[[organization]] = {:organization} ` +
        `AND EXISTS (SELECT 1 FROM ${PENDING_REVOCATIONS_TABLE} AS p WHERE p.account = a.[[id]]) LIMIT 1`,
    )
    .bind({ organization })
    .all(rows);
  return rows[0]?.id;
}

/** The account's id and its recorded claim's length, read without the claim or the list themselves. */
function claimOf(app: CoreApp, n: CollectionNames, organization: string): { id: string; claimLength: number } | undefined {
  const rows = arrayOf(new DynamicModel({ id: "", claimLength: 0 })) as { id: string; claimLength: number }[];
  app.db()
    .newQuery(`SELECT [[id]], LENGTH([[jwt]]) AS [[claimLength]] FROM {{${n.bus_accounts}}} WHERE [[organization]] = {:organization} LIMIT 1`)
    .bind({ organization })
    .all(rows);
  return rows[0];
}

function pendingOf(app: CoreApp, accountId: string, limit = -1): PendingRevocation[] {
  const rows = arrayOf(new DynamicModel({ key: "", cutoff: 0 })) as { key: string; cutoff: number }[];
  app.db()
    .newQuery(`SELECT key, cutoff FROM ${PENDING_REVOCATIONS_TABLE} WHERE account = {:account} LIMIT {:limit}`)
    .bind({ account: accountId, limit })
    .all(rows);
  return rows.map((row) => ({ publicKey: row.key, cutoff: row.cutoff }));
}

/** The list text the pending entries add, at most: a raised cutoff adds less than its entry. */
function pendingBytes(app: CoreApp, accountId: string): number {
  const rows = arrayOf(new DynamicModel({ bytes: 0 })) as { bytes: number }[];
  app.db()
    .newQuery(`SELECT COALESCE(SUM(${ENTRY_BYTES_SQL}), 0) AS bytes FROM ${PENDING_REVOCATIONS_TABLE} WHERE account = {:account}`)
    .bind({ account: accountId })
    .all(rows);
  return rows[0]?.bytes ?? 0;
}
