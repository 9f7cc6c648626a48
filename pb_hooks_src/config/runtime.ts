/// <reference path="../../build/types/types.d.ts" />
// The goja-facing adapter: the only file of config/ that touches PocketBase's JS globals. $os and
// toString are declared by the generated types.d.ts (scripts/gen-types.sh).
import { ConfigError, loadConfig } from "./load";
import type { PlatformConfig } from "./types";
import { parseYamlOnDemand } from "./yaml-on-demand";

// PocketBase's goja exposes process.env; the generated declarations omit it.
declare const process: { env: Record<string, string | undefined> };

const PUBLISHED_KEY = "platform.config";

// Module instances are cached per VM, so each VM reads the configuration once.
let cached: PlatformConfig | undefined;

/**
 * The platform configuration; throws ConfigError when it is refused. A handler's VM takes the one the
 * loader VM published (publishConfig): one configuration per process, and no pooled VM reads or parses
 * the file again. Before that (the loader itself) and in migrations it is loaded from its sources.
 */
export function currentConfig(): PlatformConfig {
  cached ??= published() ?? loadConfig({ env: process.env, args: $os.args, cwd: $os.getwd(), readFile, parseYaml: parseYamlOnDemand });
  return cached;
}

/** Run once by the loader VM (startup.ts), after the configuration was accepted. */
export function publishConfig(): void {
  $app.store().set(PUBLISHED_KEY, JSON.stringify(currentConfig()));
}

function published(): PlatformConfig | undefined {
  // A migration's VM has no $app (PocketBase hands migrations their app): it loads from the sources.
  if (typeof $app === "undefined") return undefined;
  const text = $app.store().get(PUBLISHED_KEY) as string | undefined;
  return text === undefined ? undefined : (JSON.parse(text) as PlatformConfig);
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
