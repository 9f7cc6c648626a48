/// <reference path="../../build/types/types.d.ts" />
// Cheap validators of the polled routes (docs/decisions/087-polled-routes-validated-by-row-stamps.md): an
// entity tag over the `updated` stamps of the rows an answer is built from, read in one small query, so an
// unchanged poll answers 304 without loading key material, hashing it or rendering an overlay config.
import { sharedStore } from "./app-store";
import { entityTag, noneMatchHits } from "./etag";
import { requestOf } from "./events";

const BOOT_KEY = "platform.validator.boot";

/**
 * Random per process. A write that bypasses `updated` (a migration's raw UPDATE of a list) runs only at
 * start, so a restart changes every tag; an agent pays one full answer per restart of the control plane.
 */
function bootNonce(): string {
  return sharedStore().getOrSet(BOOT_KEY, () => $security.randomString(16)) as string;
}

/**
 * The values of scalar SQL subqueries (each one row's stamp or id), read in one query; "" for a subquery
 * that finds no row. `params` binds every {:name} the subqueries use.
 */
export function stampsOf<K extends string>(app: CoreApp, subqueries: Record<K, string>, params: Record<string, string>): Record<K, string> {
  const keys = Object.keys(subqueries) as K[];
  const row = new DynamicModel(Object.fromEntries(keys.map((key) => [key, ""]))) as Record<K, string>;
  const columns = keys.map((key) => `COALESCE((${subqueries[key]}), '') AS [[${key}]]`).join(", ");
  app.db().newQuery(`SELECT ${columns}`).bind(params).one(row);
  return row;
}

/** A strong tag over the route's name, the process and `parts`; equal parts within one process, equal answers. */
export function validatorTag(route: string, parts: readonly string[]): string {
  return entityTag($security.sha256([route, bootNonce(), ...parts].join("\n")));
}

/**
 * A polled answer behind its validator: 304 with no body when If-None-Match names `tag`, otherwise
 * `build()`'s answer with the tag. The tag goes out with a 200 only, so a tag a client holds always
 * named a full answer (an error answer never teaches one). no-store either way: the answers carry
 * credentials, which no shared cache may keep.
 */
export function conditionalAnswer(e: core.RequestEvent, tag: string, build: () => unknown): { status: number; body: unknown } {
  e.response.header().set("Cache-Control", "no-store");
  if (noneMatchHits(requestOf(e).header.get("If-None-Match"), tag)) {
    e.response.header().set("ETag", tag);
    return { status: 304, body: undefined };
  }
  const body = build();
  e.response.header().set("ETag", tag);
  return { status: 200, body };
}
