// A platform command's failure as the operator should see it. An error thrown out of a cobra runE reaches
// PocketBase's main as a goja exception, which it prints with a timestamp and the script position
// ("... at bootstrap2 (/…/pb_hooks/lib/loader.js:2297:29(18))"): a stack frame in an operator's terminal.
// So each command catches its own error, writes one line naming the command to stderr, and exits 1.
import { firstLineOf } from "./errors";
import { stderr } from "./std-streams";

/**
 * Wraps a command's body: on a throw, "<name>: <first line of the message>" on stderr and exit status 1.
 * None of the platform's commands takes a positional argument, so one is refused the same way rather than
 * ignored (`bootstrap operator@example.com` without --email).
 */
export function reportingFailure(name: string, body: (cmd: cobra.Command) => void): (cmd: cobra.Command, args: string[]) => void {
  return (cmd, args) => {
    if (args.length > 0) fail(`${name}: unexpected argument "${args[0]}" (see '${cmd.commandPath()} --help')`);
    try {
      body(cmd);
    } catch (err) {
      fail(`${name}: ${failureText(err)}`);
    }
  };
}

/**
 * A command that only groups others (`bus`, `audit`). Alone it prints its help; followed by a word that is
 * none of its subcommands it fails, as the root does: cobra would print the help and exit 0, so a
 * mistyped subcommand in a script looked like success.
 */
export function commandGroup(use: string, short: string): cobra.Command {
  return new Command({
    use,
    short,
    runE: (cmd, args) => {
      if (args.length === 0) return cmd.help();
      fail(`unknown command "${args[0]}" for "${cmd.commandPath()}" (see '${cmd.commandPath()} --help')`);
    },
  });
}

/** One line on stderr, exit status 1. */
function fail(line: string): never {
  stderr().write(`${line}\n`);
  $os.exit(1);
  // Not reached ($os.exit does not return); it tells the type checker so.
  throw new Error(line);
}

/**
 * The message's first line without the goja frame (" at fn (file.js:1:2(3))" or " at fn (native)") that a
 * JS error carries once it has crossed Go, e.g. thrown by a hook inside a save. A validation error's text
 * ends each field's message with a period after PocketBase's own ("character(s).."): one is kept.
 */
export function failureText(err: unknown): string {
  return firstLineOf(err)
    .replace(/ at \S+ \((native|[^()]*:\d+:\d+(\(\d+\))?)\)$/, "")
    .replace(/([^.])\.; /g, "$1; ")
    .replace(/([^.])\.\.$/, "$1.");
}
