// Typed values from text: environment variables and command-line flags.
import { ConfigError, shown } from "./errors";
import type { ConfigValue, KeyTable } from "./key-table";
import { origin } from "./settings";

export function parseText<K extends string>(table: KeyTable<K>, key: K, text: string, source: string): ConfigValue {
  const info = table.info(key);
  switch (info.type) {
    case "string":
      return text;
    case "string-list":
      return splitList(text);
    case "int":
      return parseInteger(text, () => `${origin(key, source)} must be an integer, got ${shown(info, text)}`);
    case "bool":
      return parseBoolean(text, () => `${origin(key, source)} must be true, false, 1 or 0, got ${shown(info, text)}`);
  }
}

/** Space-separated entries; commas are left in place so validation can name them. */
export function splitList(text: string): string[] {
  return text.split(/\s+/).filter((entry) => entry !== "");
}

function parseInteger(text: string, refusal: () => string): number {
  const value = Number(text);
  // Number() alone would accept "", " 7", "1e3", "0x10".
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(value)) throw new ConfigError(refusal());
  return value;
}

function parseBoolean(text: string, refusal: () => string): boolean {
  const lower = text.toLowerCase();
  if (lower === "true" || lower === "1") return true;
  if (lower === "false" || lower === "0") return false;
  throw new ConfigError(refusal());
}
