/// <reference path="../../build/types/types.d.ts" />
// The goja-facing adapter: the only file of config/ that touches PocketBase's JS globals. $os and
// toString are declared by the generated types.d.ts (scripts/gen-types.sh).
import { ConfigError, loadConfig } from "./load";
import type { PlatformConfig } from "./types";

// PocketBase's goja exposes process.env; the generated declarations omit it.
declare const process: { env: Record<string, string | undefined> };

// Module instances are cached per VM, so each VM loads the configuration once.
let cached: PlatformConfig | undefined;

/** The platform configuration, loaded on first use; throws ConfigError when it is refused. */
export function currentConfig(): PlatformConfig {
  cached ??= loadConfig({ env: process.env, args: $os.args, cwd: $os.getwd(), readFile });
  return cached;
}

function readFile(path: string): string | undefined {
  try {
    return toString($os.readFile(path));
  } catch (err) {
    // Go's os.ReadFile error text; any other failure (permissions, a directory) must not pass as "absent".
    const message = String(err instanceof Error ? err.message : err);
    if (message.includes("no such file or directory")) return undefined;
    throw new ConfigError(`cannot read ${path}: ${message}`);
  }
}
