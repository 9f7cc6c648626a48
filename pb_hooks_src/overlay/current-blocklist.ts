/// <reference path="../../build/types/types.d.ts" />
// Every read of an overlay host's config (record API view and list, expand, realtime, write responses)
// carries its CA's current revocation list as pki.blocklist (spec 3.2 things.active item 4; docs/overlay.md
// "Deactivation", "Pruning": expired certificates left out). A deactivation writes that list only, one row.
// Bound to the hosts collection alone and bundled into the small lib/serving.js: PocketBase nests the
// enrich hooks of a page, so a page of 30 holds 30 hook VMs at once, and a VM created past the pool
// compiles this bundle, not the full library. So this file reads no configuration: the collection names
// come from the store (lib/serving-names.ts), and a read is one indexed query.
import { blocklistItems, withBlocklistItemsExcept } from "../../common/overlay/host-config";
import { currentBlocklist, revokedEntriesFromJson } from "./revocations";
import { sharedStore as store } from "../lib/app-store";
import { fieldsKeep } from "../lib/requested-fields";
import { publishedCollectionNames } from "../lib/serving-names";

const RENDERED_KEY_PREFIX = "platform.overlay.blocklist.";

/**
 * A CA's list as stored (the JSON text) and as rendered at a time. A hit needs the same text and a time
 * before `changesAt`, when the next entry expires and the rendered list would shrink, so it is never stale.
 */
interface Rendered {
  raw: string;
  items: string;
  /** Unix seconds; Infinity when no entry left in `items` expires. */
  changesAt: number;
}

/** onRecordEnrich of overlay_hosts: config_yaml with the CA's current pki.blocklist, without the host's own. */
export function withCurrentBlocklist(e: core.RecordEnrichEvent): void {
  const host = e.record;
  if (!host) return;
  // A response that leaves config_yaml out (the console's hosts page) needs none built.
  if (!fieldsKeep(e.requestInfo?.query["fields"] as string | undefined, "config_yaml")) return;
  const config = host.getString("config_yaml");
  if (config) host.set("config_yaml", servedConfig(e.app, host));
}

/**
 * The host's config_yaml as every read serves it: with its CA's current pki.blocklist, without the host's
 * own fingerprint ("" when the host has no config). GET /api/me/identity serves the same text.
 */
export function servedConfig(app: CoreApp, host: core.Record, now = new Date()): string {
  const config = host.getString("config_yaml");
  if (!config) return "";
  const items = currentItems(app, host.getString("organization"), Math.floor(now.getTime() / 1000));
  if (items === undefined) return config;
  return withBlocklistItemsExcept(config, items, host.getString("fingerprint").trim().toLowerCase());
}

/**
 * The list's YAML entries at `nowSeconds`, rendered (parsed, pruned, sorted, quoted) once per content of the
 * list and expiry, and shared by every VM through $app.store(): a page of hosts renders it at most once.
 * Undefined without a CA.
 */
function currentItems(app: CoreApp, organizationId: string, nowSeconds: number): string | undefined {
  const key = RENDERED_KEY_PREFIX + organizationId;
  const cached = store().get(key) as Rendered | undefined;
  const raw = revokedJsonOf(app, organizationId);
  if (raw === undefined) return undefined;
  if (cached && cached.raw === raw && nowSeconds < cached.changesAt) return cached.items;
  const current = currentBlocklist(revokedEntriesFromJson(raw), nowSeconds);
  const rendered: Rendered = { raw, items: blocklistItems(current.fingerprints), changesAt: current.changesAt };
  store().set(key, rendered);
  return rendered.items;
}

/** The JSON text of the organization's CA revoked_fingerprints ("" when none); undefined without a CA. */
function revokedJsonOf(app: CoreApp, organizationId: string): string | undefined {
  const table = publishedCollectionNames().overlay_ca;
  const row = new DynamicModel({ revoked: "" }) as { revoked: string };
  try {
    // A plain equality, which seeks the organization scope index (schema/common.ts).
    app
      .db()
      .newQuery(`SELECT COALESCE([[revoked_fingerprints]], '') AS revoked FROM {{${table}}} WHERE [[organization]] = {:org} LIMIT 1`)
      .bind({ org: organizationId })
      .one(row);
  } catch {
    return undefined;
  }
  return row.revoked;
}
