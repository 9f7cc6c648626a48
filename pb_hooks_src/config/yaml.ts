// The YAML reader of config files: js-yaml's core schema, which yields only strings, numbers, booleans,
// null, lists and mappings (no dates). js-yaml is about a third of the hooks library, so the goja adapter
// (runtime.ts) requires this module only when there is a file to read.
import { CORE_SCHEMA, load } from "js-yaml";

export function parseYaml(text: string, filename: string): unknown {
  return load(text, { schema: CORE_SCHEMA, filename });
}
