// Which command a PocketBase command line runs (pure). Hooks load before `serve` exists, so cobra cannot
// be asked; this reads os.Args the way cobra does: the first argument that is neither a flag nor the
// value of a flag that takes one.

/** `takesValue` says whether a flag (name without dashes, or a one-letter shorthand) consumes the next argument. */
export function commandName(args: readonly string[], takesValue: (flag: string) => boolean): string {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") return args[i + 1] ?? "";
    if (!arg.startsWith("-") || arg === "-") return arg;
    if (arg.includes("=")) continue;
    const name = arg.startsWith("--") ? arg.slice(2) : arg.slice(-1);
    if (takesValue(name)) i++;
  }
  return "";
}
