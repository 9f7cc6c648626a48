import type { ConfigValue } from "./key-table";

/** One key's value and where it came from: `env PLATFORM_X`, a file path, `flag --bus` or `defaults`. */
export interface Setting {
  value: ConfigValue;
  source: string;
}

/** The keys one source sets. */
export type Settings<K extends string = string> = Map<K, Setting>;

/** How messages name a setting, e.g. `bus.leaf_url (from env PLATFORM_BUS_LEAF_URL)`. */
export function origin(key: string, source: string): string {
  return `${key} (from ${source})`;
}
