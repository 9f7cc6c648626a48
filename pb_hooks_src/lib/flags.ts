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
