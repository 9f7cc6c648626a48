// `agent service install`: writes the systemd unit (system: /etc/systemd/system, --user:
// ~/.config/systemd/user, or --unit-dir) after checking that the config it names loads.
import { mkdir } from "node:fs/promises";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { findConfigFile } from "../../../common/config/discover";
import { AGENT_CONFIG_CANDIDATES, loadAgentConfig, type AgentConfigSources } from "../config/load";
import { writeFileAtomic } from "../lib/files";
import { renderUnit, UNIT_NAME } from "./unit";

export interface InstallOptions {
  sources: AgentConfigSources;
  user: boolean;
  unitDir?: string;
  nodePath: string;
  bundlePath: string;
}

/** Writes the unit and answers its path; throws ConfigError when the config does not load. */
export async function installService(options: InstallOptions): Promise<string> {
  const { sources } = options;
  // Refuse to install a service that would exit at once on its config.
  loadAgentConfig(sources);
  // The service runs from /, so it is given the absolute path of the file found here, if any.
  const file = findConfigFile(sources.readFile, sources.cwd, sources.configPath, AGENT_CONFIG_CANDIDATES);
  const unitDir = resolve(sources.cwd, options.unitDir ?? (options.user ? join(homedir(), ".config/systemd/user") : "/etc/systemd/system"));
  await mkdir(unitDir, { recursive: true });
  const path = join(unitDir, UNIT_NAME);
  const unit = renderUnit({
    nodePath: options.nodePath,
    bundlePath: isAbsolute(options.bundlePath) ? options.bundlePath : resolve(sources.cwd, options.bundlePath),
    configPath: file?.path,
    user: options.user,
  });
  writeFileAtomic(path, unit, 0o644);
  return path;
}
