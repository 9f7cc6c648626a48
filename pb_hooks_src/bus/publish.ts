// Tenants' account claims pushed to the bus (claim-push.ts) by the write lease's holder, once the hub's
// claims are merged into the records. A suspended account's claim admits nothing (accounts.ts): the
// server drops its connections and the full resolver keeps that claim across restarts.
// $SYS.REQ.CLAIMS.DELETE is not used: with nats-server 2.15.2 a deleted account that clients keep dialling
// could stay locked out after its claim was pushed again (docs/bus.md). The outcome is recorded on the
// account row, never hidden.
import { logPublication } from "../audit/verbose";
import { findRecord } from "../lib/collections";
import type { CollectionNames } from "../schema/names";
import { writeRefusal } from "../replication/lease";
import type { ClaimsReply } from "./replies";
import { publishClaim } from "./claim-push";
import { readHubClaimsOnce } from "./hub-adoption";

export function publishAccount(app: CoreApp, n: CollectionNames, account: core.Record): ClaimsReply {
  // Only the write lease's holder pushes tenants' claims: a demoted primary's could undo a newer one.
  const refusal = writeRefusal(app);
  if (refusal) return recordOutcome(app, n, account, { ok: false, message: `not pushed: ${refusal}` });
  // Nor before the hub's claims are merged into the records (hub-adoption.ts). A first reading, now,
  // re-signs what it merged; the pushes that waited for it follow, this account's as stored now.
  const hub = readHubClaimsOnce(app, n);
  if (!hub.read) return recordOutcome(app, n, account, { ok: false, message: `not pushed yet: ${hub.reason}; tried again at the next push and every minute` });
  for (const id of new Set([...hub.merged, ...hub.waiting])) if (id !== account.id) publishCurrent(app, n, id);
  const current = hub.merged.includes(account.id) ? (findRecord(app, n.bus_accounts, account.id) ?? account) : account;
  return recordOutcome(app, n, current, publishClaim(app, current.getString("jwt")));
}

const MAX_ATTEMPTS = 3;

/**
 * Publishes the account as it is stored now, and again if a write changed it meanwhile: a write's own
 * publication may have run before this one, which must not leave an older state on the bus.
 */
export function publishCurrent(app: CoreApp, n: CollectionNames, id: string): boolean {
  let ok = false;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const before = findRecord(app, n.bus_accounts, id);
    if (!before) return false;
    ok = publishAccount(app, n, before).ok;
    const after = findRecord(app, n.bus_accounts, id);
    if (!after || (after.getString("jwt") === before.getString("jwt") && after.getBool("active") === before.getBool("active"))) break;
  }
  return ok;
}

/**
 * The outcome recorded on the row and in the verbose audit log, with a plain UPDATE: it is not a change
 * of desired state (no hooks, no audit entry).
 */
function recordOutcome(app: CoreApp, n: CollectionNames, account: core.Record, outcome: ClaimsReply): ClaimsReply {
  app.db()
    .newQuery(`UPDATE {{${n.bus_accounts}}} SET bus_confirmed = {:ok}, bus_status = {:status} WHERE id = {:id}`)
    .bind({ ok: outcome.ok, status: outcome.message.slice(0, 500), id: account.id })
    .execute();
  account.set("bus_confirmed", outcome.ok);
  account.set("bus_status", outcome.message.slice(0, 500));
  logPublication(account, outcome.ok, outcome.message);
  return outcome;
}
