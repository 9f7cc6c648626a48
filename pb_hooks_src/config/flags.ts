// The command-line flags the configuration reads from os.Args: --config, --bus, --bus-config.
// Parsed like cobra/pflag: `--name value` or `--name=value`, a bare `--bus` means true, the last
// occurrence wins, and nothing after `--` is a flag.
import { ConfigError } from "../../common/config/errors";
import { PLATFORM_KEYS } from "./keys";
import type { Settings } from "../../common/config/settings";
import { parseText } from "../../common/config/text";

export interface Flags {
  /** The --config path as given, if any. */
  configPath?: string;
  /** bus.embedded and bus.embedded_config when given as --bus / --bus-config. */
  settings: Settings;
}

export function readFlags(args: string[]): Flags {
  const flags: Flags = { settings: new Map() };
  // args[0] is the binary.
  for (let i = 1; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") break;
    const [name, inlineValue] = splitFlag(arg);
    if (name === "--bus") {
      const source = "flag --bus";
      flags.settings.set("bus.embedded", { value: parseText(PLATFORM_KEYS, "bus.embedded", inlineValue ?? "true", source), source });
    } else if (name === "--config" || name === "--bus-config") {
      const value = inlineValue ?? args[++i];
      if (value === undefined || value === "") throw new ConfigError(`flag ${name} needs a path`);
      if (name === "--config") flags.configPath = value;
      else flags.settings.set("bus.embedded_config", { value, source: "flag --bus-config" });
    }
  }
  return flags;
}

function splitFlag(arg: string): [string, string | undefined] {
  const eq = arg.indexOf("=");
  return eq < 0 ? [arg, undefined] : [arg.slice(0, eq), arg.slice(eq + 1)];
}
