// A platform command's failure as the operator should see it. An error thrown out of a cobra runE reaches
// PocketBase's main as a goja exception, which it prints with a timestamp and the script position
// ("... at bootstrap2 (/…/pb_hooks/lib/loader.js:2297:29(18))"): a stack frame in an operator's terminal.
// So each command catches its own error, writes one line naming the command to stderr, and exits 1.
import { firstLineOf } from "./errors";
import { stderr } from "./std-streams";

/** Wraps a command's body: on a throw, "<name>: <first line of the message>" on stderr and exit status 1. */
export function reportingFailure(name: string, body: (cmd: cobra.Command) => void): (cmd: cobra.Command) => void {
  return (cmd) => {
    try {
      body(cmd);
    } catch (err) {
      stderr().write(`${name}: ${failureText(err)}\n`);
      $os.exit(1);
    }
  };
}

/**
 * The message's first line without the goja frame (" at fn (file.js:1:2(3))" or " at fn (native)") that a
 * JS error carries once it has crossed Go, e.g. thrown by a hook inside a save.
 */
export function failureText(err: unknown): string {
  return firstLineOf(err).replace(/ at \S+ \((native|[^()]*:\d+:\d+(\(\d+\))?)\)$/, "");
}
