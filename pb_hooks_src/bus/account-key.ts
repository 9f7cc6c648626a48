// An account's public key read on its own.
import type { CollectionNames } from "../schema/names";

/**
 * The organization's account's public key alone ("" without an account): the row also holds the claim and
 * its revocation list, hundreds of KB that a caller needing the key should not read.
 */
export function accountPublicKey(app: CoreApp, n: CollectionNames, organizationId: string): string {
  const rows = arrayOf(new DynamicModel({ key: "" })) as { key: string }[];
  app.db()
    .newQuery(`SELECT [[public_key]] AS [[key]] FROM {{${n.bus_accounts}}} WHERE [[organization]] = {:organization} LIMIT 1`)
    .bind({ organization: organizationId })
    .all(rows);
  return rows[0]?.key ?? "";
}
