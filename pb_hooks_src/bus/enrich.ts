// Every response carrying an organization or a bus user also says whether the bus confirmed the
// account's recorded state, so a caller whose write could not be published is told so plainly.
import type { CollectionNames } from "../schema/names";
import { accountOf } from "./accounts";

/** The collections whose responses carry the status: the tags the enrich hook is bound to (main.pb.ts). */
export function busStatusCollections(n: CollectionNames): string[] {
  return [n.organizations, n.bus_users];
}

export function withBusStatus(app: CoreApp, n: CollectionNames, record: core.Record): void {
  const name = record.collection().name;
  if (!busStatusCollections(n).includes(name)) return;
  const account = accountOf(app, n, name === n.organizations ? record.id : record.getString("organization"));
  if (!account) return;
  record.withCustomData(true);
  record.set("bus_confirmed", account.getBool("bus_confirmed"));
  record.set("bus_status", account.getString("bus_status"));
}
