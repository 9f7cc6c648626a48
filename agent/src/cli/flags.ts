// A small command-line parser (commander 15 needs Node 22): `--name value`, `--name=value`, boolean
// flags without a value, no positional arguments. A usage error is exit status 2.

export interface FlagSpec {
  /** True: a switch (`--user`); false: takes a value (`--config path`). */
  boolean: boolean;
  help: string;
  /** Shown after the flag in help, e.g. `path`. */
  value?: string;
  /** Set: the flag is refused with this reason (e.g. a secret that must never be an argument); not in help. */
  refusal?: string;
}

export type FlagSpecs = Readonly<Record<string, FlagSpec>>;
export type FlagValues = Record<string, string | true | undefined>;

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** Flags by name (without dashes); `--help`/`-h` is always accepted. Throws UsageError. */
export function parseFlags(command: string, args: readonly string[], specs: FlagSpecs): FlagValues {
  const values: FlagValues = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "-h" || arg === "--help") {
      values.help = true;
      continue;
    }
    if (!arg.startsWith("--")) throw new UsageError(`agent ${command}: unexpected argument ${JSON.stringify(arg)}`);
    const eq = arg.indexOf("=");
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const spec = Object.prototype.hasOwnProperty.call(specs, name) ? specs[name] : undefined;
    if (spec === undefined) throw new UsageError(`agent ${command}: unknown flag --${name}`);
    if (spec.refusal !== undefined) throw new UsageError(`agent ${command}: --${name} refused: ${spec.refusal}`);
    if (spec.boolean) {
      if (eq >= 0) throw new UsageError(`agent ${command}: flag --${name} takes no value`);
      values[name] = true;
      continue;
    }
    const value = eq >= 0 ? arg.slice(eq + 1) : args[++i];
    if (value === undefined || value === "") throw new UsageError(`agent ${command}: flag --${name} needs a value${spec.value ? ` (${spec.value})` : ""}`);
    values[name] = value;
  }
  return values;
}

/** The flags' lines of a help text. */
export function flagsHelp(specs: FlagSpecs): string {
  const rows = Object.entries(specs)
    .filter(([, spec]) => spec.refusal === undefined)
    .map(([name, spec]) => [`--${name}${spec.boolean ? "" : ` <${spec.value ?? "value"}>`}`, spec.help]);
  rows.push(["-h, --help", "Show this help."]);
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`).join("\n");
}
