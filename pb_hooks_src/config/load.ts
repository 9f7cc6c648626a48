// Builds the platform configuration from, by priority: command-line flags --bus/--bus-config, PLATFORM_*
// environment variables, one config file (--config, else ./config.yaml, else /etc/<service>/config.yaml),
// built-in defaults. Pure: every input arrives through ConfigSources.
import { findConfigFile } from "../../common/config/discover";
import { readEnv } from "../../common/config/env";
import { readConfigFile, type YamlParser } from "../../common/config/file";
import { readFlags } from "./flags";
import { PLATFORM_KEYS, SERVICE_NAME } from "./keys";
import { resolveLayers } from "../../common/config/layers";
import type { PlatformConfig } from "./types";
import { validateConfig } from "./validate";

export { ConfigError } from "../../common/config/errors";
export { SERVICE_NAME } from "./keys";

export interface ConfigSources {
  env: Record<string, string | undefined>;
  /** The process argv (os.Args: [binary, command, ...flags]). */
  args: string[];
  cwd: string;
  /** The file's text, or undefined when the file does not exist. */
  readFile(path: string): string | undefined;
  /** Reads a config file's YAML (common/config/yaml.ts#parseYaml). */
  parseYaml: YamlParser;
}

export function loadConfig(sources: ConfigSources): PlatformConfig {
  const flags = readFlags(sources.args);
  const file = findConfigFile(sources.readFile, sources.cwd, flags.configPath, ["config.yaml", `/etc/${SERVICE_NAME}/config.yaml`]);
  // Highest priority first. Flags beat the environment: they are the most explicit choice.
  const { config, describe } = resolveLayers<PlatformConfig>(PLATFORM_KEYS, [
    flags.settings,
    readEnv(PLATFORM_KEYS, sources.env),
    file ? readConfigFile(PLATFORM_KEYS, file.text, file.path, sources.parseYaml) : new Map(),
  ]);
  return validateConfig(config, describe);
}
