import { withoutCredentials } from "../url-text";
import type { KeyInfo } from "./key-table";

/** A configuration the program refuses to start with; the message is one line naming key and source. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/** A value as quoted in messages; secrets are never echoed, nor the credentials a URL may carry. */
export function shown(info: KeyInfo, value: unknown): string {
  if (info.secret) return "(hidden)";
  return JSON.stringify(typeof value === "string" ? withoutCredentials(value) : value) ?? String(value);
}
