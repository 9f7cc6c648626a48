// The credential upkeep (issue 36), run by the sidecar's schedule (sidecar/upkeep.ts) through
// POST /api/platform/bus/upkeep: renews bus users' credentials with half their lifetime left, prunes
// revocation entries past their horizon, and signs an account's legacy wildcard once its credentials all
// expire. Each change is its own transaction, so a refusal (a claim too large, a row deleted meanwhile)
// holds back that one row and the pass goes on. Rules: bus/expiry.ts; docs/bus.md.
import { currentConfig } from "../config/runtime";
import { findRecord } from "../lib/collections";
import { transaction } from "../lib/transaction";
import { collectionNames, type CollectionNames } from "../schema/names";
import { writeRefusal } from "../replication/lease";
import { jsonOf, resignAccount } from "./accounts";
import { WILDCARD, legacyCutoffReady, renewalDue, renewalThreshold, type RevocationList } from "./expiry";
import { configuredLifetime } from "./lifetime";
import { jwtIssuedAt } from "./issued-at";
import { ensureNoticeExport } from "./notices";

/** Credentials renewed per pass at most: a pass stays short, and the renewal window is half a lifetime. */
const RENEWALS_PER_PASS = 200;

export interface UpkeepSummary {
  renewed: number;
  /** Accounts re-signed because an entry passed its horizon. */
  pruned: number;
  /** Accounts whose credentials minted without an expiry are now refused by a wildcard. */
  legacyCovered: number;
  /** Rows a change was refused for; each is named in the log. */
  failed: number;
}

const NOTHING: UpkeepSummary = { renewed: 0, pruned: 0, legacyCovered: 0, failed: 0 };

export function runCredentialUpkeep(app: CoreApp): UpkeepSummary {
  // Only the control plane holding the write lease writes.
  if (writeRefusal(app)) return NOTHING;
  const n = collectionNames(currentConfig());
  const now = Math.floor(Date.now() / 1000);
  const lifetime = configuredLifetime();
  const summary = { ...NOTHING };
  ensureNoticeExport(app);
  const attempt = (what: string, change: (tx: CoreApp) => boolean, counter: "renewed" | "pruned" | "legacyCovered") => {
    try {
      if (transaction(app, change)) summary[counter]++;
    } catch (err) {
      summary.failed++;
      console.warn(`bus upkeep: ${what} was not changed: ${err instanceof Error ? err.message : String(err)}`);
    }
  };

  // Ids first, by plain SQL: an account's row carries its claim and list, hundreds of kilobytes each.
  const renewals = idsWhere(app, n.bus_users, "[[active]] = 1 AND [[expires]] < {:threshold} ORDER BY [[expires]] LIMIT {:limit}", {
    threshold: renewalThreshold(now, lifetime),
    limit: RENEWALS_PER_PASS,
  });
  for (const id of renewals) attempt(`the credential of bus user ${id}`, (tx) => renewUser(tx, n, id, now, lifetime), "renewed");
  // Credentials minted before notices, re-minted to carry their slot (bus/notices.ts#assignNoticeSlots).
  const unslotted = idsWhere(app, n.bus_users, "[[active]] = 1 AND [[notice_slot]] < 0 LIMIT {:limit}", { limit: RENEWALS_PER_PASS });
  for (const id of unslotted) attempt(`the credential of bus user ${id}`, (tx) => renewUser(tx, n, id, now, lifetime), "renewed");
  const due = (account: core.Record) => account.getInt("revocations_prune_at") > 0 && account.getInt("revocations_prune_at") <= now;
  for (const id of idsWhere(app, n.bus_accounts, "[[revocations_prune_at]] > 0 AND [[revocations_prune_at]] <= {:now}", { now })) {
    attempt(`the revocation list of bus account ${id}`, (tx) => resignIf(tx, n, id, due), "pruned");
  }
  // Accounts whose unexpiring credentials no wildcard covers yet.
  const uncovered = `[[unexpiring_until]] > 0 AND COALESCE(json_extract(CASE WHEN json_valid([[revocations]]) THEN [[revocations]] END, '$."${WILDCARD}"'), 0) < [[unexpiring_until]]`;
  for (const id of idsWhere(app, n.bus_accounts, uncovered, {})) {
    attempt(`the legacy cutoff of bus account ${id}`, (tx) => coverLegacy(tx, n, id, now, lifetime), "legacyCovered");
  }
  return summary;
}

function idsWhere(app: CoreApp, table: string, where: string, params: Record<string, unknown>): string[] {
  const rows = arrayOf(new DynamicModel({ id: "" })) as { id: string }[];
  app.db().newQuery(`SELECT [[id]] FROM {{${table}}} WHERE ${where}`).bind(params).all(rows);
  return rows.map((row) => row.id);
}

/** Re-mints the user's credential (same key) if, as committed, it is still active and due. */
function renewUser(tx: CoreApp, n: CollectionNames, id: string, now: number, lifetime: number): boolean {
  const user = findRecord(tx, n.bus_users, id);
  if (!user || !user.getBool("active")) return false;
  if (user.getInt("notice_slot") >= 0 && !renewalDue(user.getInt("expires"), now, lifetime)) return false;
  user.set("regenerate", true);
  tx.save(user);
  return true;
}

function resignIf(tx: CoreApp, n: CollectionNames, id: string, still: (account: core.Record) => boolean): boolean {
  const account = findRecord(tx, n.bus_accounts, id);
  if (!account || !still(account)) return false;
  resignAccount(tx, n, account);
  return true;
}

/**
 * Signs the wildcard at the account's `unexpiring_until` once legacyCutoffReady says so; the account's
 * entries may be pruned from then on.
 */
function coverLegacy(tx: CoreApp, n: CollectionNames, id: string, now: number, lifetime: number): boolean {
  const account = findRecord(tx, n.bus_accounts, id);
  const until = account?.getInt("unexpiring_until") ?? 0;
  if (!account || until === 0) return false;
  const list = jsonOf<RevocationList>(account, "revocations") ?? {};
  if ((list[WILDCARD] ?? 0) >= until) return false;
  const active = tx.findRecordsByFilter(n.bus_users, "organization = {:org} && active = true", "", 0, 0, { org: account.getString("organization") });
  if (!legacyCutoffReady(active.map((user) => user?.getInt("expires") ?? 0), until, now, lifetime)) return false;
  list[WILDCARD] = until;
  account.set("revocations", list);
  resignAccount(tx, n, account);
  return true;
}

/**
 * For the migration that brought expiry: each account with credentials minted without one records the
 * last second such a credential was issued in, which keeps its revocation entries until coverLegacy.
 */
export function markUnexpiringCredentials(app: CoreApp): void {
  const n = collectionNames(currentConfig());
  const now = Math.floor(Date.now() / 1000);
  for (const account of app.findRecordsByFilter(n.bus_accounts, "unexpiring_until = 0", "", 0, 0, {})) {
    if (!account) continue;
    const users = app.findRecordsByFilter(n.bus_users, "organization = {:org} && expires = 0 && jwt != ''", "", 0, 0, { org: account.getString("organization") });
    if (users.length === 0) continue;
    // A burst of re-signs issues up to a few seconds ahead of the clock (bus/users.ts#mint).
    const lastIssued = Math.max(now, ...users.map((user) => (user ? jwtIssuedAt(user.getString("jwt")) : 0)));
    // A plain UPDATE: a record save would re-sign the claim, and a migration runs before the sidecar.
    app.db().newQuery(`UPDATE {{${n.bus_accounts}}} SET unexpiring_until = {:until} WHERE id = {:id}`).bind({ until: lastIssued, id: account.id }).execute();
  }
}
