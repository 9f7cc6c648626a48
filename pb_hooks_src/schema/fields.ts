// Translation of FieldSpec into PocketBase's JSON field definitions (pure, so it is unit-tested).
import type { FieldSpec } from "./spec";

/** 5 MiB: enough for an icon, a floor plan or a logo. */
const MAX_FILE_BYTES = 5 * 1024 * 1024;

export type FieldJSON = Record<string, unknown> & { name: string; type: string };

/** `collectionId` resolves a relation target to its collection id. */
export function fieldJSON(spec: FieldSpec, collectionId: (key: string) => string): FieldJSON {
  switch (spec.type) {
    case "text":
      return { name: spec.name, type: "text", required: !!spec.required, hidden: !!spec.hidden, pattern: spec.pattern ?? "", max: spec.max ?? 0 };
    case "email":
      return { name: spec.name, type: "email", required: !!spec.required };
    case "bool":
      return { name: spec.name, type: "bool", hidden: !!spec.hidden };
    case "number":
      return { name: spec.name, type: "number", onlyInt: !!spec.onlyInt };
    case "json":
      return { name: spec.name, type: "json", hidden: !!spec.hidden };
    case "date":
      return { name: spec.name, type: "date" };
    case "select":
      return { name: spec.name, type: "select", values: [...spec.values], maxSelect: 1, required: !!spec.required };
    case "relation":
      return {
        name: spec.name,
        type: "relation",
        collectionId: collectionId(spec.target),
        maxSelect: 1,
        required: !!spec.required,
        cascadeDelete: !!spec.cascadeDelete,
      };
    case "file":
      // Every file field is protected: URLs need a short-lived file token (spec 4.1).
      return { name: spec.name, type: "file", maxSelect: 1, maxSize: MAX_FILE_BYTES, mimeTypes: spec.mimeTypes ?? [], protected: true };
    case "autodate":
      return { name: spec.name, type: "autodate", onCreate: true, onUpdate: spec.onUpdate };
  }
}

export function isRelation(spec: FieldSpec): boolean {
  return spec.type === "relation";
}
