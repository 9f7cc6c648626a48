/// <reference path="../../build/types/types.d.ts" />
// The configured collection names, as the small serving library's handlers see them. Loading the
// configuration there would pull the whole configuration loader into every VM that runs one of them (they
// run once per record of a page), so the loader VM records the names in $app.store() once, before any
// request, and each VM parses them once.
import type { CollectionNames } from "../schema/names";

const NAMES_KEY = "platform.collectionNames";

let parsed: CollectionNames | undefined;

/** Run once by the loader VM (startup.ts). */
export function publishCollectionNames(n: CollectionNames): void {
  $app.store().set(NAMES_KEY, JSON.stringify(n));
}

export function publishedCollectionNames(): CollectionNames {
  if (parsed) return parsed;
  const text = $app.store().get(NAMES_KEY) as string | undefined;
  if (!text) throw new Error("collection names not published: the hooks library did not start");
  parsed = JSON.parse(text) as CollectionNames;
  return parsed;
}
