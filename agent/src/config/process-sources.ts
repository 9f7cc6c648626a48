// The running process as a configuration source: its environment, its working directory, the disk.
import { ConfigError } from "../../../common/config/errors";
import { readIfPresent } from "../lib/files";
import type { AgentConfigSources } from "./load";

export function processSources(configPath: string | undefined): AgentConfigSources {
  return { env: process.env, configPath, cwd: process.cwd(), readFile };
}

function readFile(path: string): string | undefined {
  try {
    return readIfPresent(path);
  } catch (err) {
    // Only absence means "not there"; a permission problem or a directory must not pass silently.
    throw new ConfigError(`cannot read ${path}: ${(err as Error).message}`);
  }
}
