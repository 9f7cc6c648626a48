/// <reference path="../../../../build/types/types.d.ts" />
// schema (spec 4.3): every platform collection exists with its platform fields.
import { fieldsOf } from "../../../lib/collections";
import { platformCollections } from "../../../schema/collections";
import { collectionNames } from "../../../schema/names";
import { MIGRATE_FIX, isNoRows, type Check } from "./check";
import { describeGaps, schemaGaps } from "./schema-gaps";

export const schema: Check = ({ app, config }) => {
  const n = collectionNames(config);
  const gaps = schemaGaps(
    platformCollections(n),
    (spec) => n[spec.key],
    (name) => {
      let collection: core.Collection;
      try {
        collection = app.findCollectionByNameOrId(name);
      } catch (err) {
        if (isNoRows(err)) return undefined; // no such collection
        throw err;
      }
      return fieldsOf(collection).map((f) => f.getName());
    },
  );
  const detail = describeGaps(gaps);
  return detail ? { state: "fail", detail, fix: MIGRATE_FIX } : { state: "ok" };
};
