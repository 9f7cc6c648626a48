// Every response carrying an organization or a bus user also says whether the bus confirmed the
// account's recorded state, so a caller whose write could not be published is told so plainly.
//
// This runs once per record of a page, in its own hook VM (PocketBase nests the enrich hooks of a page),
// so it lives in the small serving library and is bound to these two collections only (main.pb.ts). The
// configured collection names reach it through the app store: reading the configuration would pull the
// whole configuration loader into every such VM.
import { recordOf } from "../lib/events";
import type { CollectionNames } from "../schema/names";

const NAMES_KEY = "platform.busStatusNames";

interface BusStatusNames {
  organizations: string;
  bus_users: string;
  bus_accounts: string;
}

/** The collections whose records carry the bus status: the enrich hook's tags. */
export function busStatusCollections(n: CollectionNames): string[] {
  return [n.organizations, n.bus_users];
}

/** Called once by the loader VM, before any request. */
export function publishBusStatusNames(app: CoreApp, n: CollectionNames): void {
  const names: BusStatusNames = { organizations: n.organizations, bus_users: n.bus_users, bus_accounts: n.bus_accounts };
  app.store().set(NAMES_KEY, JSON.stringify(names));
}

/** onRecordEnrich: one indexed lookup of the account (bus_accounts has a unique index on organization). */
export function withBusStatus(e: core.RecordEnrichEvent): void {
  const app = e.app;
  const record = recordOf(e);
  const text = app.store().get(NAMES_KEY) as string | undefined;
  if (!text) throw new Error("bus status names not published: the hooks library did not start");
  const n = JSON.parse(text) as BusStatusNames;
  const name = record.collection().name;
  if (name !== n.organizations && name !== n.bus_users) return;
  const organization = name === n.organizations ? record.id : record.getString("organization");
  let account: core.Record;
  try {
    account = app.findFirstRecordByFilter(n.bus_accounts, "organization = {:org}", { org: organization });
  } catch {
    return;
  }
  record.withCustomData(true);
  record.set("bus_confirmed", account.getBool("bus_confirmed"));
  record.set("bus_status", account.getString("bus_status"));
}
