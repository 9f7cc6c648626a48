/// <reference path="../../build/types/types.d.ts" />
// The total of a tenant's unfiltered page of a counted collection (schema/row-counts.ts), read from the count
// kept per organization instead of PocketBase's COUNT over every row the rule admits, which costs ~15 ms at
// 100,000 rows whatever the page (docs/performance.md "List pages", point 6). The rows themselves still come
// from PocketBase's query under the list rule. A filtered page, a SuperUser's and a Platform Operator's are
// counted by PocketBase as before.
//
// PocketBase runs the count beside the page query inside its list handler, before any list hook, so the
// global middleware asks it to skip the total (skipTotal) and the list hook fills it in. Both run in the
// small serving library.
import { publishedCollectionNames } from "../lib/serving-names";
import { COUNTED_LISTS, ROW_COUNTS_TABLE } from "../schema/row-counts";

/** Request-store key: the middleware took the total over for this request. */
const COUNTED_TOTAL = "platform.countedTotal";
const LIST_PATH = /^\/api\/collections\/(\w+)\/records$/;
/** What Go's strconv.ParseBool reads as false: PocketBase counts then. */
const FALSE_WORDS = new Set(["0", "f", "F", "false", "FALSE", "False"]);

/**
 * Whether a list request's total may come from the kept count, by its query: no filter (which the count
 * knows nothing of), no sort through a relation (PocketBase joins the related rows under their own rules,
 * which leaves out a row whose related record the caller may not read), and a total asked for (skipTotal
 * absent or false; an unreadable one is left to PocketBase, which refuses it).
 */
export function countedTotalApplies(filter: string, skipTotal: string, sort: string): boolean {
  return filter.trim() === "" && !sort.includes(".") && (skipTotal === "" || FALSE_WORDS.has(skipTotal));
}

/** Part of the global middleware: marks a counted list request and makes PocketBase skip its own count. */
export function takeOverListTotal(e: core.RequestEvent): void {
  if (e.request?.method !== "GET" || !e.auth) return;
  const match = LIST_PATH.exec(e.request.url?.path ?? "");
  if (!match || !countsFor(e.auth, match[1])) return;
  const query = e.request.url!.query();
  if (!countedTotalApplies(query.get("filter"), query.get("skipTotal"), query.get("sort"))) return;
  query.set("skipTotal", "true");
  e.request.url!.rawQuery = query.encode();
  e.set(COUNTED_TOTAL, true);
}

/** onRecordsListRequest of the counted collections: the total the client asked for, from the kept count. */
export function withCountedTotal(e: core.RecordsListRequestEvent): void {
  const result = e.result;
  if (e.get(COUNTED_TOTAL) !== true || !result) return;
  const total = visibleTotal(e, result.page);
  result.totalItems = total;
  result.totalPages = Math.ceil(total / result.perPage);
}

/**
 * A user that is not a Platform Operator (whose rules reach across organizations) listing a counted
 * collection, named or given by id.
 */
function countsFor(auth: core.Record, collectionNameOrId: string): boolean {
  const n = publishedCollectionNames();
  if (auth.collection().name !== n.users || auth.getBool("is_operator")) return false;
  let name: string;
  try {
    name = $app.findCachedCollectionByNameOrId(collectionNameOrId).name;
  } catch {
    return false;
  }
  return COUNTED_LISTS.some((key) => n[key] === name);
}

/**
 * Under a counted collection's list rule a user sees every row of its active organization or none. So a
 * page with a row names the organization whose count is the total; an empty first page means none; an
 * empty later page (past the end) is settled by asking the rule about one row of the active organization.
 */
function visibleTotal(e: core.RecordsListRequestEvent, page: number): number {
  const first = e.records.length > 0 ? e.records[0] : undefined;
  if (first) return organizationRows(e.app, e.collection!.id, first.getString("organization"));
  if (page <= 1) return 0;
  const organization = e.auth?.getString("current_organization") ?? "";
  const probe = organization ? rowOf(e.app, e.collection!, organization) : undefined;
  if (!probe || !e.app.canAccessRecord(probe, e.requestInfo(), e.collection!.listRule as string)) return 0;
  return organizationRows(e.app, e.collection!.id, organization);
}

function rowOf(app: CoreApp, collection: core.Collection, organization: string): core.Record | undefined {
  const record = new Record(collection);
  try {
    app.recordQuery(collection).andWhere($dbx.hashExp({ organization })).limit(1).one(record);
  } catch {
    return undefined;
  }
  return record;
}

function organizationRows(app: CoreApp, collectionId: string, organization: string): number {
  const rows = arrayOf(new DynamicModel({ total: 0 })) as { total: number }[];
  app
    .db()
    .newQuery(`SELECT total FROM ${ROW_COUNTS_TABLE} WHERE collection = {:collection} AND organization = {:organization}`)
    .bind({ collection: collectionId, organization })
    .all(rows);
  return rows.length > 0 ? rows[0].total : 0;
}
