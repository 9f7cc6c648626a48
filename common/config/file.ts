// Sources (2) and (3): a YAML config file. Keys are nested (`bus: {server_url: ...}`); a dotted key
// (`bus.server_url: ...`) means the same. Unknown keys and wrong types are refused: a typo must not be
// silently ignored.
import { ConfigError, shown } from "./errors";
import type { ConfigValue, KeyTable, KeyType } from "./key-table";
import { origin, type Settings } from "./settings";
import { splitList } from "./text";

type Mapping = Record<string, unknown>;

/** Parses YAML text into plain values; throws js-yaml's error (config/yaml.ts). */
export type YamlParser = (text: string, filename: string) => unknown;

export function readConfigFile<K extends string>(table: KeyTable<K>, text: string, path: string, parse: YamlParser): Settings<K> {
  const settings: Settings<K> = new Map();
  const doc = parseYaml(parse, text, path);
  if (doc === null || doc === undefined) return settings;
  if (!isMapping(doc)) throw new ConfigError(`${path}: the top level must be a mapping of keys`);
  collect(table, doc, "", path, settings);
  return settings;
}

function parseYaml(parse: YamlParser, text: string, path: string): unknown {
  try {
    return parse(text, path);
  } catch (err) {
    throw new ConfigError(`${path}: invalid YAML: ${yamlProblem(err)}`);
  }
}

/** js-yaml's message spans several lines (it quotes the source); keep its reason and position. */
function yamlProblem(err: unknown): string {
  const { reason, mark } = (err ?? {}) as { reason?: unknown; mark?: { line?: unknown; column?: unknown } };
  if (typeof reason !== "string") return String(err).split("\n")[0];
  const line = typeof mark?.line === "number" ? mark.line + 1 : undefined;
  const column = typeof mark?.column === "number" ? mark.column + 1 : undefined;
  return line === undefined ? reason : `${reason} at line ${line}, column ${column}`;
}

function collect<K extends string>(table: KeyTable<K>, mapping: Mapping, prefix: string, path: string, settings: Settings<K>): void {
  for (const [name, raw] of Object.entries(mapping)) {
    const dotted = prefix === "" ? name : `${prefix}.${name}`;
    if (table.has(dotted)) {
      if (settings.has(dotted)) throw new ConfigError(`${path}: key "${dotted}" is set twice`);
      settings.set(dotted, { value: fileValue(table, dotted, raw, path), source: path });
    } else if (table.sections.has(dotted)) {
      // An empty section (`bus:` with every child commented out) sets nothing.
      if (raw === null) continue;
      if (!isMapping(raw)) throw new ConfigError(`${path}: "${dotted}" must be a mapping of keys`);
      collect(table, raw, dotted, path, settings);
    } else {
      throw new ConfigError(`${path}: unknown key "${dotted}"`);
    }
  }
}

function fileValue<K extends string>(table: KeyTable<K>, key: K, raw: unknown, path: string): ConfigValue {
  const info = table.info(key);
  const type = info.type;
  if (type === "string" && typeof raw === "string") return raw;
  if (type === "int" && typeof raw === "number" && Number.isSafeInteger(raw)) return raw;
  if (type === "bool" && typeof raw === "boolean") return raw;
  if (type === "string-list") {
    if (typeof raw === "string") return splitList(raw);
    if (Array.isArray(raw) && raw.every((entry) => typeof entry === "string")) return [...raw];
  }
  throw new ConfigError(`${origin(key, path)} must be ${EXPECTED[type]}, got ${shown(info, raw)}${hint(type, raw)}`);
}

function hint(type: KeyType, raw: unknown): string {
  if (type !== "string") return raw === null ? " (give a value, or remove the key)" : "";
  if (raw === null) return ' (write "" for an empty string, or remove the key)';
  return typeof raw === "object" ? "" : " (quote the value)";
}

const EXPECTED = {
  string: "a string",
  int: "an integer",
  bool: "true or false",
  "string-list": "a list of strings or a space-separated string",
} as const;

function isMapping(value: unknown): value is Mapping {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
