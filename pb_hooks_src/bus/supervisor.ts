// How `serve --bus` runs nats-server (pure): through a small bash supervisor that dies with PocketBase.
//
// A child started with `$os.cmd(...).start()` survives its parent's SIGKILL, and goja has no way to set
// PR_SET_PDEATHSIG (Go's version of it follows the spawning OS thread, not the process, anyway). So
// PocketBase holds the only write end of a pipe on the supervisor's stdin; the kernel closes it however
// PocketBase ends, SIGKILL included, and the supervisor then stops nats-server (SIGTERM, SIGKILL after
// 10 s). SIGTERM, SIGINT or SIGHUP to the supervisor do the same. Bash rather than a Node wrapper: it is
// on every host PocketBase runs on and starts in a millisecond.

// Bounds the checks before the start; a local config test and a loopback dial take milliseconds.
const PREFLIGHT_TIMEOUT_S = 10;

// $1: nats-server binary, $2: config file, further arguments go to nats-server.
// - Its stdout and stderr are PocketBase's own stderr (embedded.ts), which nats-server inherits.
// - Background jobs of a non-interactive shell get /dev/null as stdin, so the pipe is kept on fd 3.
// - The shell itself watches both: `read -t` on the pipe returns at its end (PocketBase gone), and every
//   0.2 s it looks whether nats-server still runs. Not `wait -n` on nats-server and a `cat` of the pipe:
//   a job that has already ended when `wait -n` starts is "no such job" to it, so a nats-server that died
//   at once left the supervisor waiting on the pipe for good. And no `cat`: one process (~1.6 MB) fewer.
export const SUPERVISOR_SCRIPT = String.raw`
exec 3<&0 0</dev/null
bin=$1 config=$2
shift 2
"$bin" -c "$config" "$@" & nats=$!
stopping=
trap 'stopping=1' TERM INT HUP
while [ -z "$stopping" ] && kill -0 "$nats" 2>/dev/null; do
  read -r -t 0.2 -u 3 _
  [ $? -eq 1 ] && break
done
if kill -0 "$nats" 2>/dev/null; then
  kill -TERM "$nats"
  for ((i = 0; i < 100; i++)); do kill -0 "$nats" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$nats" 2>/dev/null
  wait "$nats" 2>/dev/null
else
  wait "$nats"
  echo "bus supervisor: nats-server exited with status $?" >&2
fi
exit 0
`;

/** What preflightArgs printed: nothing when nats-server may start. */
export type Preflight = { ok: true } | { ok: false; complaint: string } | { ok: false; busy: true };

/**
 * Arguments of `timeout` for the checks before nats-server starts, in one process (each process spawned
 * before the listener opens delays serve): nats-server's config test (`-t`), which prints its complaint
 * (goja's exec throws away the output of a command that fails, so the script itself never fails), then
 * one look at the client port through bash's /dev/tcp, since goja has no TCP client.
 */
export function preflightArgs(natsServer: string, configPath: string, host: string, port: number): string[] {
  const script = [
    'out=$("$0" -t -c "$1" 2>&1) || { printf "refused:%s" "$out"; exit 0; }',
    'if (exec 3<>"/dev/tcp/$2/$3") 2>/dev/null; then printf busy; fi',
  ].join("\n");
  return [String(PREFLIGHT_TIMEOUT_S), "bash", "-c", script, natsServer, configPath, host, String(port)];
}

/** Reads what preflightArgs printed; its last line is nats-server's complaint. */
export function parsePreflight(output: string): Preflight {
  if (output.startsWith("refused:")) return { ok: false, complaint: output.slice("refused:".length).trim().split("\n").pop() ?? "" };
  if (output === "busy") return { ok: false, busy: true };
  return { ok: true };
}

/**
 * Arguments of `timeout` for one process that waits until the client port answers with NATS's greeting
 * (`INFO`, which a NATS server sends first), looking every 5 ms, and gives up as soon as the supervisor has
 * exited (nats-server ended; its log says why). Prints `answers` or `exited`; nothing if timeout ends it.
 */
export function awaitAnswerArgs(host: string, port: number, supervisorPid: number, timeoutMs: number): string[] {
  const script = [
    'until exec 3<>"/dev/tcp/$0/$1" && read -r -t 2 -N 4 greeting <&3 && [ "$greeting" = INFO ]; do',
    "  exec 3<&-",
    // An exited child stays a zombie (Z) until PocketBase reaps it.
    '  read -r stat <"/proc/$2/stat" && [[ $stat != *") Z "* ]] || { printf exited; exit 0; }',
    "  sleep 0.005",
    "done 2>/dev/null",
    "printf answers",
  ].join("\n");
  return [String(Math.ceil(timeoutMs / 1000)), "bash", "-c", script, host, String(port), String(supervisorPid)];
}

/** What awaitAnswerArgs printed. */
export function answered(output: string): "answers" | "exited" | "timeout" {
  return output === "answers" || output === "exited" ? output : "timeout";
}

/**
 * Arguments of `bash` for the supervisor; the name after the script becomes $0 (shown by ps). The e2e
 * harness runs nats-server the same way, so a test process that dies leaves no server behind either.
 */
export function supervisorArgs(natsServer: string, configPath: string, natsArgs: readonly string[] = []): string[] {
  return ["-c", SUPERVISOR_SCRIPT, "bus-supervisor", natsServer, configPath, ...natsArgs];
}

/**
 * nats-server's environment: PocketBase's, less the platform's own configuration (PLATFORM_*), which
 * includes encryption keys the bus server has no use for. Other variables stay, since a server config
 * may read `$VARIABLES` from the environment.
 */
export function supervisorEnv(env: Record<string, string | undefined>): string[] {
  return Object.entries(env)
    .filter((entry): entry is [string, string] => entry[1] !== undefined && !entry[0].startsWith("PLATFORM_"))
    .map(([name, value]) => `${name}=${value}`);
}

/** Where to dial bus.server_url's server to see it answer: a wildcard host means this machine. */
export function dialHost(serverUrl: string): string {
  const host = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/(?:[^@/]*@)?(?:\[([^\]]*)\]|([^:/?#]*))/.exec(serverUrl.trim());
  const name = host?.[1] ?? host?.[2] ?? "";
  if (name === "" || name === "0.0.0.0" || name === "::") return "127.0.0.1";
  return name;
}
