// Which one config file is read: the --config path if given (it must exist), else the first of the
// discovered candidates that exists, else none.
import { ConfigError } from "./errors";

export interface ConfigFile {
  path: string;
  text: string;
}

/** `readFile` answers the text, or undefined when the file does not exist. Relative paths are taken from cwd. */
export function findConfigFile(
  readFile: (path: string) => string | undefined,
  cwd: string,
  configPath: string | undefined,
  candidates: readonly string[],
): ConfigFile | undefined {
  if (configPath !== undefined) {
    const path = absolute(cwd, configPath);
    const text = readFile(path);
    if (text === undefined) throw new ConfigError(`flag --config: file ${path} does not exist`);
    return { path, text };
  }
  for (const path of candidates.map((candidate) => absolute(cwd, candidate))) {
    const text = readFile(path);
    if (text !== undefined) return { path, text };
  }
  return undefined;
}

function absolute(cwd: string, path: string): string {
  return path.startsWith("/") ? path : `${cwd.replace(/\/+$/, "")}/${path}`;
}
