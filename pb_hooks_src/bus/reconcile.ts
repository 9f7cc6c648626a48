// Level-triggered convergence: every account's recorded state (claim present when active, withdrawn
// when not) is published again at serve's start and every minute, so a restart of either process or a
// bus outage leaves nothing a tenant can observe once the bus is back.
import { currentConfig } from "../config/runtime";
import { findAll, findRecord } from "../lib/collections";
import { collectionNames, type CollectionNames } from "../schema/names";
import { findOperator } from "./operator";
import { withdrawOrphanAccounts } from "./orphans";
import { publishAccount } from "./publish";
import { adoptHubClaims } from "./hub-adoption";
import { writeRefusal } from "../replication/lease";
import { signAllPendingRevocations } from "./effects";

export const RECONCILE_JOB = "platform-bus-reconcile";
/** Cron steps in whole minutes; once a minute is the most often it can run. */
export const RECONCILE_SCHEDULE = "* * * * *";

export interface ReconcileSummary {
  accounts: number;
  confirmed: number;
  /** Accounts of deleted organizations withdrawn now (orphans.ts). */
  withdrawn: number;
}

export function reconcileAccounts(app: CoreApp): ReconcileSummary {
  const n = collectionNames(currentConfig());
  // A control plane without the write lease neither publishes nor withdraws: another one is the primary.
  if (writeRefusal(app)) return { accounts: 0, confirmed: 0, withdrawn: 0 };
  // Revocations a crash left pending join their lists first; each save pushes its account's claim.
  signAllPendingRevocations(app, n);
  const ids = findAll(app, n.bus_accounts, "").map((a) => a.id);
  let confirmed = 0;
  for (const id of ids) {
    if (publishCurrent(app, n, id)) confirmed++;
  }
  // Only once the bus answers (with it down every publication above failed, and so would the listing),
  // and only with an operator: reading its keys would otherwise create one before bootstrap.
  let withdrawn = 0;
  if (confirmed > 0 || (ids.length === 0 && findOperator(app))) {
    try {
      withdrawn = withdrawOrphanAccounts(app, n);
    } catch (err) {
      console.warn(`bus: could not look for accounts of deleted organizations: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return { accounts: ids.length, confirmed, withdrawn };
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
 * serve's start, once PocketBase listens and the sidecar answers (platform.ts#startedRoute); serve has
 * applied the migrations by then, yet a database the platform schema was never imported into has no accounts.
 */
export function reconcileAtStart(app: CoreApp): void {
  if (!$os.args.includes("serve")) return;
  try {
    app.findCollectionByNameOrId(collectionNames(currentConfig()).bus_accounts);
  } catch {
    return;
  }
  // After a restore or a promotion the records may predate the hub's claims: merged back first.
  const n = collectionNames(currentConfig());
  if (adoptHubClaims(app, n) > 0) console.warn("bus: records merged with the hub's newer claims (see above); check the organizations named");
  const summary = reconcileAccounts(app);
  if (summary.confirmed < summary.accounts) {
    console.warn(`bus: ${summary.accounts - summary.confirmed} of ${summary.accounts} accounts not confirmed by the bus; retrying every minute`);
  }
}
