// Source (1): environment variables (PLATFORM_* for the control plane, AGENT_* for the agent). Names are
// computed from the known keys, so a variable no key maps to is simply not read (the agent or other tools
// may share the environment).
import type { KeyTable } from "./key-table";
import type { Settings } from "./settings";
import { parseText } from "./text";

export function readEnv<K extends string>(table: KeyTable<K>, env: Record<string, string | undefined>): Settings<K> {
  const settings: Settings<K> = new Map();
  for (const key of table.keys) {
    const text = env[table.envName(key)];
    if (text === undefined) continue;
    const source = `env ${table.envName(key)}`;
    settings.set(key, { value: parseText(table, key, text, source), source });
  }
  return settings;
}
