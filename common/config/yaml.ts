// The YAML reader of config files: js-yaml's core schema, which yields only strings, numbers, booleans,
// null, lists and mappings (no dates). Hooks reach it through yaml-on-demand.ts.
import { CORE_SCHEMA, load } from "js-yaml";

export function parseYaml(text: string, filename: string): unknown {
  return load(text, { schema: CORE_SCHEMA, filename });
}
