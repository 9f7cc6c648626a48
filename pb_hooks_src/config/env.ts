// Source (1): PLATFORM_* environment variables. Names are computed from the known keys, so a variable no
// key maps to is simply not read (the agent or other tools may share the environment).
import { CONFIG_KEYS, envName } from "./keys";
import type { Settings } from "./settings";
import { parseText } from "./text";

export function readEnv(env: Record<string, string | undefined>): Settings {
  const settings: Settings = new Map();
  for (const key of CONFIG_KEYS) {
    const text = env[envName(key)];
    if (text === undefined) continue;
    const source = `env ${envName(key)}`;
    settings.set(key, { value: parseText(key, text, source), source });
  }
  return settings;
}
