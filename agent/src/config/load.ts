// Builds the agent configuration from, by priority: AGENT_* environment variables, one agent.yaml
// (--config, else ./agent.yaml, else /etc/iot-agent/agent.yaml), built-in defaults. Pure: every input
// arrives through AgentConfigSources.
import { findConfigFile } from "../../../common/config/discover";
import { readEnv } from "../../../common/config/env";
import { readConfigFile } from "../../../common/config/file";
import { parseYaml } from "../../../common/config/yaml";
import { resolveLayers } from "../../../common/config/layers";
import { AGENT_KEYS } from "./keys";
import type { AgentConfig } from "./types";
import { validateAgentConfig } from "./validate";

export { ConfigError } from "../../../common/config/errors";

export const AGENT_CONFIG_CANDIDATES = ["agent.yaml", "/etc/iot-agent/agent.yaml"] as const;

export interface AgentConfigSources {
  env: Record<string, string | undefined>;
  /** The --config path as given, if any (it must exist). */
  configPath?: string;
  cwd: string;
  /** The file's text, or undefined when the file does not exist. */
  readFile(path: string): string | undefined;
}

export function loadAgentConfig(sources: AgentConfigSources): AgentConfig {
  const file = findConfigFile(sources.readFile, sources.cwd, sources.configPath, AGENT_CONFIG_CANDIDATES);
  const { config, describe } = resolveLayers<AgentConfig>(AGENT_KEYS, [
    readEnv(AGENT_KEYS, sources.env),
    file ? readConfigFile(AGENT_KEYS, file.text, file.path, parseYaml) : new Map(),
  ]);
  return validateAgentConfig(config, describe);
}
