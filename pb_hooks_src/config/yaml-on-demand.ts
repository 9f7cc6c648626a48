// The goja adapter's YAML reader (runtime.ts): requires js-yaml's own bundle, pb_hooks/lib/yaml.js
// (common/config/yaml.ts), at the first file to read. Kept out of the libraries, js-yaml (~100 kB) is compiled
// only by a process that reads a config file, not at every start nor in every pooled VM that loads a
// library (docs/performance.md "Start and footprint"). The unit tests replace this module with
// common/config/yaml.ts itself.
export function parseYamlOnDemand(text: string, filename: string): unknown {
  return (require(`${__hooks}/lib/yaml.js`) as typeof import("../../common/config/yaml")).parseYaml(text, filename);
}
