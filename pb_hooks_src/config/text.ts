// Typed values from text: environment variables and command-line flags.
import { ConfigError, shown } from "./errors";
import { keyInfo, type ConfigKey, type ConfigValue } from "./keys";
import { origin } from "./settings";

export function parseText(key: ConfigKey, text: string, source: string): ConfigValue {
  switch (keyInfo(key).type) {
    case "string":
      return text;
    case "string-list":
      return splitList(text);
    case "int":
      return parseInteger(key, text, source);
    case "bool":
      return parseBoolean(key, text, source);
  }
}

/** Space-separated entries; commas are left in place so validation can name them. */
export function splitList(text: string): string[] {
  return text.split(/\s+/).filter((entry) => entry !== "");
}

function parseInteger(key: ConfigKey, text: string, source: string): number {
  const value = Number(text);
  // Number() alone would accept "", " 7", "1e3", "0x10".
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(value)) {
    throw new ConfigError(`${origin(key, source)} must be an integer, got ${shown(key, text)}`);
  }
  return value;
}

function parseBoolean(key: ConfigKey, text: string, source: string): boolean {
  const lower = text.toLowerCase();
  if (lower === "true" || lower === "1") return true;
  if (lower === "false" || lower === "0") return false;
  throw new ConfigError(`${origin(key, source)} must be true, false, 1 or 0, got ${shown(key, text)}`);
}
