// Level-triggered convergence: every account's recorded state (claim present when active, withdrawn
// when not) is published again at serve's start and every minute, so a restart of either process or a
// bus outage leaves nothing a tenant can observe once the bus is back.
import { currentConfig } from "../config/runtime";
import { findAll } from "../lib/collections";
import { collectionNames } from "../schema/names";
import { publishAccount } from "./publish";

export const RECONCILE_JOB = "platform-bus-reconcile";
/** Cron steps in whole minutes; once a minute is the most often it can run. */
export const RECONCILE_SCHEDULE = "* * * * *";

export interface ReconcileSummary {
  accounts: number;
  confirmed: number;
}

export function reconcileAccounts(app: CoreApp): ReconcileSummary {
  const n = collectionNames(currentConfig());
  const accounts = findAll(app, n.bus_accounts, "");
  let confirmed = 0;
  for (const account of accounts) {
    if (publishAccount(app, n, account).ok) confirmed++;
  }
  return { accounts: accounts.length, confirmed };
}

/** serve's start: the schema may not exist yet on a first run (serve migrates after bootstrap). */
export function reconcileAtStart(app: CoreApp): void {
  if (!$os.args.includes("serve")) return;
  try {
    app.findCollectionByNameOrId(collectionNames(currentConfig()).bus_accounts);
  } catch {
    return;
  }
  const summary = reconcileAccounts(app);
  if (summary.confirmed < summary.accounts) {
    console.warn(`bus: ${summary.accounts - summary.confirmed} of ${summary.accounts} accounts not confirmed by the bus; retrying every minute`);
  }
}
