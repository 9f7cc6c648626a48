// Level-triggered convergence: every account's recorded state (claim present when active, withdrawn
// when not) is published again at serve's start and every minute, so a restart of either process or a
// bus outage leaves nothing a tenant can observe once the bus is back.
import { currentConfig } from "../config/runtime";
import { findAll } from "../lib/collections";
import { collectionNames } from "../schema/names";
import { findOperator } from "./operator";
import { withdrawOrphanAccounts } from "./orphans";
import { publishCurrent } from "./publish";
import { readHubClaimsAgain, readHubClaimsOnce } from "./hub-adoption";
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
  const ids = findAll(app, n.bus_accounts, "").map((a) => a.id);
  // Nothing is pushed before the hub's claims are merged into the records (hub-adoption.ts).
  const hub = readHubClaimsOnce(app, n);
  if (!hub.read) {
    if (ids.length > 0) console.warn(`bus: no claim pushed: ${hub.reason}; trying again in a minute`);
    return { accounts: ids.length, confirmed: 0, withdrawn: 0 };
  }
  // Revocations a crash left pending join their lists first; each save pushes its account's claim.
  signAllPendingRevocations(app, n);
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
  const hub = readHubClaimsAgain(app, collectionNames(currentConfig()));
  if (hub.read && hub.merged.length > 0) console.warn("bus: records merged with the hub's newer claims (see above); check the organizations named");
  const summary = reconcileAccounts(app);
  if (summary.confirmed < summary.accounts) {
    console.warn(`bus: ${summary.accounts - summary.confirmed} of ${summary.accounts} accounts not confirmed by the bus; retrying every minute`);
  }
}
