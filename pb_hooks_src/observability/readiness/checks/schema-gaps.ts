// Which parts of the platform schema a database lacks (check `schema`). Pure: runs in goja and in Node.
import type { CollectionSpec } from "../../../schema/spec";

export interface SchemaGaps {
  /** Platform collections that do not exist. */
  missing: string[];
  /** Existing platform collections without some of their platform fields, with those fields. */
  incomplete: { collection: string; fields: string[] }[];
}

/**
 * Compares specs (with configured names resolved by `nameOf`) to what exists: `fieldsOf` returns a
 * collection's field names, or undefined when the collection does not exist.
 */
export function schemaGaps(
  specs: readonly CollectionSpec[],
  nameOf: (spec: CollectionSpec) => string,
  fieldsOf: (name: string) => readonly string[] | undefined,
): SchemaGaps {
  const gaps: SchemaGaps = { missing: [], incomplete: [] };
  for (const spec of specs) {
    const name = nameOf(spec);
    const existing = fieldsOf(name);
    if (!existing) {
      gaps.missing.push(name);
      continue;
    }
    const absent = spec.fields.map((f) => f.name).filter((f) => !existing.includes(f));
    if (absent.length > 0) gaps.incomplete.push({ collection: name, fields: absent });
  }
  return gaps;
}

/** One line for the readiness detail: the first few gaps, counted. */
export function describeGaps(gaps: SchemaGaps): string | undefined {
  const parts: string[] = [];
  if (gaps.missing.length > 0) parts.push(`missing collections: ${listed(gaps.missing)}`);
  if (gaps.incomplete.length > 0) {
    parts.push(`collections without their platform fields: ${listed(gaps.incomplete.map((g) => `${g.collection} (${listed(g.fields)})`))}`);
  }
  return parts.length > 0 ? `the platform schema was never imported or is incomplete: ${parts.join("; ")}` : undefined;
}

const SHOWN = 5;

function listed(items: readonly string[]): string {
  return items.length <= SHOWN ? items.join(", ") : `${items.slice(0, SHOWN).join(", ")} and ${items.length - SHOWN} more`;
}
