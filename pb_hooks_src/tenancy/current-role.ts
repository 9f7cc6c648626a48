// users.current_role mirrors the role of the membership in users.current_organization ("" without one),
// and users.current_scope that organization (null without one), so that the API rules compare constants
// of the caller's own row instead of joining memberships on every listed record (docs/performance.md
// "List pages"). It is recomputed from the rows as committed
// inside the write's own transaction, after every write that could change it: a membership's create,
// update or delete, and any write of a users row (which may switch the active organization, or carry a
// stale or forged value). SQLite admits one writer at a time, so concurrent writers cannot interleave
// between the write and the recomputation.
import type { WriteAction, WriteEffects } from "../lib/effects";
import type { CollectionNames } from "../schema/names";
import { CURRENT_ROLE, CURRENT_SCOPE } from "../schema/rules";

/**
 * One UPDATE, so no hook or audit entry follows (the membership's or the user's own entry names the
 * change). A deleted membership's user may be gone too (a cascade): then nothing matches.
 */
export function syncCurrentRole(tx: CoreApp, n: CollectionNames, userIds: readonly string[]): void {
  const ids = userIds.filter((id) => id !== "");
  if (ids.length === 0) return;
  const params: Record<string, string> = {};
  ids.forEach((id, i) => (params[`u${i}`] = id));
  updateCurrentRole(tx, n, `WHERE [[id]] IN (${ids.map((_, i) => `{:u${i}}`).join(", ")})`, params);
}

/** Backfill of every user, for a database written before the column existed (its migration). */
export function syncEveryCurrentRole(tx: CoreApp, n: CollectionNames): void {
  updateCurrentRole(tx, n, "", {});
}

function updateCurrentRole(tx: CoreApp, n: CollectionNames, where: string, params: Record<string, string>): void {
  const u = n.users;
  tx.db()
    .newQuery(
      `UPDATE {{${u}}} SET ([[${CURRENT_ROLE}]], [[${CURRENT_SCOPE}]]) = (
         SELECT COALESCE(m.[[role]], ''), CASE WHEN m.[[role]] IS NULL THEN NULL ELSE json_quote(m.[[organization]]) END
         FROM (SELECT 1) LEFT JOIN {{${n.memberships}}} m
           ON m.[[user]] = {{${u}}}.[[id]] AND m.[[organization]] = {{${u}}}.[[current_organization]]
          AND {{${u}}}.[[current_organization]] != ''
       ) ${where}`,
    )
    .bind(params)
    .execute();
}

/** The recomputation after a write of a membership or of a users row; nothing for other collections. */
export function currentRoleEffects(n: CollectionNames, record: core.Record, action: WriteAction): WriteEffects | undefined {
  const name = record.collection().name;
  if (name === n.memberships) {
    // Only a SuperUser may move a membership to another user; then both are recomputed (the previous
    // one as committed before this write).
    return { after: (tx, previous) => syncCurrentRole(tx, n, [record.getString("user"), previous ? previous.getString("user") : ""]) };
  }
  if (name === n.users && action !== "delete") return { after: (tx) => syncCurrentRole(tx, n, [record.id]) };
  return undefined;
}

