// Builds the platform configuration from, by priority: command-line flags --bus/--bus-config, PLATFORM_*
// environment variables, one config file (--config, else ./config.yaml, else /etc/<service>/config.yaml),
// built-in defaults. Pure: every input arrives through ConfigSources.
import { readEnv } from "./env";
import { ConfigError } from "./errors";
import { readConfigFile } from "./file";
import { readFlags } from "./flags";
import { CONFIG_KEYS, SERVICE_NAME, keyInfo, type ConfigKey, type ConfigValue } from "./keys";
import { origin, type Setting, type Settings } from "./settings";
import type { PlatformConfig } from "./types";
import { validateConfig } from "./validate";

export { ConfigError } from "./errors";
export { SERVICE_NAME } from "./keys";

export interface ConfigSources {
  env: Record<string, string | undefined>;
  /** The process argv (os.Args: [binary, command, ...flags]). */
  args: string[];
  cwd: string;
  /** The file's text, or undefined when the file does not exist. */
  readFile(path: string): string | undefined;
}

export function loadConfig(sources: ConfigSources): PlatformConfig {
  const flags = readFlags(sources.args);
  const file = findConfigFile(sources, flags.configPath);
  // Highest priority first. Flags beat the environment: they are the most explicit choice.
  const layers: Settings[] = [flags.settings, readEnv(sources.env), file ? readConfigFile(file.text, file.path) : new Map()];

  const chosen = new Map<ConfigKey, Setting>();
  for (const key of CONFIG_KEYS) {
    const setting = layers.map((layer) => layer.get(key)).find((found) => found !== undefined);
    chosen.set(key, setting ?? { value: keyInfo(key).default, source: "defaults" });
  }
  return validateConfig(assemble(chosen), (key) => origin(key, chosen.get(key)?.source ?? "defaults"));
}

/** The one file read: --config if given (it must exist), else the first of the discovered files that exists. */
function findConfigFile(sources: ConfigSources, configPath: string | undefined): { path: string; text: string } | undefined {
  if (configPath !== undefined) {
    const path = absolute(sources.cwd, configPath);
    const text = sources.readFile(path);
    if (text === undefined) throw new ConfigError(`flag --config: file ${path} does not exist`);
    return { path, text };
  }
  for (const path of [absolute(sources.cwd, "config.yaml"), `/etc/${SERVICE_NAME}/config.yaml`]) {
    const text = sources.readFile(path);
    if (text !== undefined) return { path, text };
  }
  return undefined;
}

function absolute(cwd: string, path: string): string {
  return path.startsWith("/") ? path : `${cwd.replace(/\/+$/, "")}/${path}`;
}

/** Dotted keys to the nested PlatformConfig shape. */
function assemble(chosen: Map<ConfigKey, Setting>): PlatformConfig {
  const root: Record<string, unknown> = {};
  for (const [key, { value }] of chosen) {
    const parts = key.split(".");
    let node = root;
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    node[parts[parts.length - 1]] = copy(value);
  }
  // keys.ts types its table against PlatformConfig and CONFIG_KEYS covers every leaf.
  return root as unknown as PlatformConfig;
}

/** Lists are copied so no caller can mutate the defaults table. */
function copy(value: ConfigValue): ConfigValue {
  return Array.isArray(value) ? [...value] : value;
}
