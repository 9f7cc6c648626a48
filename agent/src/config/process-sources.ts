// The running process as a configuration source: its environment, its working directory, the disk.
import { readFileSync } from "node:fs";
import { ConfigError } from "../../../pb_hooks_src/config/errors";
import type { AgentConfigSources } from "./load";

export function processSources(configPath: string | undefined): AgentConfigSources {
  return { env: process.env, configPath, cwd: process.cwd(), readFile };
}

function readFile(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    // Only absence means "not there"; a permission problem or a directory must not pass silently.
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new ConfigError(`cannot read ${path}: ${(err as Error).message}`);
  }
}
