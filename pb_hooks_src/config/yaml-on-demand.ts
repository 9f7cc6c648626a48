// The goja adapter's YAML reader (runtime.ts): requires config/yaml.ts at the first file to read. esbuild
// turns this require into a lazy init of that module, so js-yaml (about a third of the hooks library) is
// not run in every pooled VM that loads the library (docs/performance.md "Concurrent writers and the hook
// VM pool"). The unit tests replace this module with config/yaml.ts itself.
export function parseYamlOnDemand(text: string, filename: string): unknown {
  return (require("./yaml") as typeof import("./yaml")).parseYaml(text, filename);
}
