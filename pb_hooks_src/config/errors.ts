import { keyInfo, type ConfigKey } from "./keys";

/** A configuration the control plane refuses to start with; the message is one line naming key and source. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/** A value as quoted in messages; secrets are never echoed. */
export function shown(key: ConfigKey, value: unknown): string {
  if (keyInfo(key).secret) return "(hidden)";
  return JSON.stringify(value) ?? String(value);
}
