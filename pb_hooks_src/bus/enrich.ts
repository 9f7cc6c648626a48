// Every response carrying an organization or a bus user also says whether the bus confirmed the
// account's recorded state, so a caller whose write could not be published is told so plainly.
//
// This runs once per record of a page, in its own hook VM (PocketBase nests the enrich hooks of a page),
// so it lives in the small serving library and is bound to these two collections only (main.pb.ts). The
// configured collection names reach it through the app store (lib/serving-names.ts).
import { recordOf } from "../lib/events";
import { publishedCollectionNames } from "../lib/serving-names";
import type { CollectionNames } from "../schema/names";
import { PENDING_REVOCATIONS_TABLE } from "./deferred-signing";

/** What a caller is told of revocations committed but not yet signed: they follow within moments. */
const PENDING_STATUS = "revocations committed; the claim is being signed and pushed to the bus";

/** The collections whose records carry the bus status: the enrich hook's tags. */
export function busStatusCollections(n: CollectionNames): string[] {
  return [n.organizations, n.bus_users];
}

/** onRecordEnrich: one indexed lookup of the account (bus_accounts has a unique index on organization). */
export function withBusStatus(e: core.RecordEnrichEvent): void {
  const record = recordOf(e);
  const n = publishedCollectionNames();
  const name = record.collection().name;
  if (name !== n.organizations && name !== n.bus_users) return;
  const organization = name === n.organizations ? record.id : record.getString("organization");
  const rows = arrayOf(new DynamicModel({ confirmed: false, status: "" })) as { confirmed: boolean; status: string }[];
  // A plain equality seeks that index; a record filter would compare COALESCE(organization, '') row by row.
  // Revocations still pending (bus/pending-revocations.ts) are not on the bus yet, whatever it last confirmed.
  const pending = `EXISTS (SELECT 1 FROM ${PENDING_REVOCATIONS_TABLE} AS p WHERE p.account = a.[[id]])`;
  e.app
    .db()
    .newQuery(
      `SELECT a.[[bus_confirmed]] AND NOT ${pending} AS confirmed, ` +
        `CASE WHEN ${pending} THEN '${PENDING_STATUS}' ELSE COALESCE(a.[[bus_status]], '') END AS status ` +
        `FROM {{${n.bus_accounts}}} AS a WHERE a.[[organization]] = {:organization} LIMIT 1`,
    )
    .bind({ organization })
    .all(rows);
  if (rows.length === 0) return;
  record.withCustomData(true);
  record.set("bus_confirmed", rows[0].confirmed);
  record.set("bus_status", rows[0].status);
}
