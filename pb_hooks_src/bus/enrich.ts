// Every response carrying an organization or a bus user also says whether the bus confirmed the
// account's recorded state, so a caller whose write could not be published is told so plainly.
import type { CollectionNames } from "../schema/names";
import { accountOf } from "./accounts";

export function withBusStatus(app: CoreApp, n: CollectionNames, record: core.Record): void {
  const name = record.collection().name;
  if (name !== n.organizations && name !== n.bus_users) return;
  const account = accountOf(app, n, name === n.organizations ? record.id : record.getString("organization"));
  if (!account) return;
  record.withCustomData(true);
  record.set("bus_confirmed", account.getBool("bus_confirmed"));
  record.set("bus_status", account.getString("bus_status"));
}
