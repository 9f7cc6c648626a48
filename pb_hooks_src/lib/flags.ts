import { commandName } from "./command-line";
import { rootCommand } from "./events";

/** The pflag.FlagSet methods the platform uses; the generated types give FlagSet as `any`. */
export interface FlagSet {
  string(name: string, value: string, usage: string): void;
  bool(name: string, value: boolean, usage: string): void;
  getString(name: string): string;
}

export function flagsOf(command: cobra.Command): FlagSet {
  return command.flags() as FlagSet;
}

export function persistentFlagsOf(command: cobra.Command): FlagSet {
  return command.persistentFlags() as FlagSet;
}

/** pflag.Flag fields read here; the generated types give FlagSet as `any`. */
interface FlagInfo {
  name: string;
  shorthand: string;
  noOptDefVal: string;
}

/** The command this process runs (`serve`, `migrate`, ...), read from os.Args before cobra has parsed it. */
export function invokedCommand(): string {
  const valued = new Set<string>();
  (rootCommand().persistentFlags() as { visitAll(fn: (flag: FlagInfo) => void): void }).visitAll((flag) => {
    if (flag.noOptDefVal !== "") return;
    valued.add(flag.name);
    if (flag.shorthand) valued.add(flag.shorthand);
  });
  return commandName($os.args.slice(1), (name) => valued.has(name));
}
