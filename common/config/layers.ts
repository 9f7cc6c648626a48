// Merges the sources of a configuration: for each key the first layer (highest priority first) that
// sets it wins, else the table's default; the dotted keys become the nested config shape.
import type { ConfigValue, KeyTable, Paths } from "./key-table";
import { origin, type Setting, type Settings } from "./settings";

export interface Resolved<T> {
  config: T;
  /** Names a key with the source its value came from, e.g. `bus.leaf_url (from env PLATFORM_BUS_LEAF_URL)`. */
  describe(key: Paths<T>): string;
}

export function resolveLayers<T>(table: KeyTable<Paths<T>>, layers: ReadonlyArray<Settings<Paths<T>>>): Resolved<T> {
  const chosen = new Map<Paths<T>, Setting>();
  for (const key of table.keys) {
    const setting = layers.map((layer) => layer.get(key)).find((found) => found !== undefined);
    chosen.set(key, setting ?? { value: table.info(key).default, source: "defaults" });
  }
  return { config: assemble<T>(chosen), describe: (key) => origin(key, chosen.get(key)?.source ?? "defaults") };
}

/** Dotted keys to the nested shape. */
function assemble<T>(chosen: Map<string, Setting>): T {
  const root: Record<string, unknown> = {};
  for (const [key, { value }] of chosen) {
    const parts = key.split(".");
    let node = root;
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    node[parts[parts.length - 1]] = copy(value);
  }
  // The table is typed against T (KeySpecs<T>) and lists every leaf.
  return root as unknown as T;
}

/** Lists are copied so no caller can mutate the defaults table. */
function copy(value: ConfigValue): ConfigValue {
  return Array.isArray(value) ? [...value] : value;
}
