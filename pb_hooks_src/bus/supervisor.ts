// How `serve --bus` runs nats-server (pure): through a small bash supervisor that dies with PocketBase.
//
// A child started with `$os.cmd(...).start()` survives its parent's SIGKILL, and goja has no way to set
// PR_SET_PDEATHSIG (Go's version of it follows the spawning OS thread, not the process, anyway). So
// PocketBase holds the only write end of a pipe on the supervisor's stdin; the kernel closes it however
// PocketBase ends, SIGKILL included, and the supervisor then stops nats-server (SIGTERM, SIGKILL after
// 10 s). SIGTERM, SIGINT or SIGHUP to the supervisor do the same. Bash rather than a Node wrapper: it is
// on every host PocketBase runs on and starts in a millisecond.

// $1: nats-server binary, $2: config file, further arguments go to nats-server.
// - Given no stderr (goja cannot hand a child PocketBase's own), the log goes to the parent's stderr when
//   that can be reopened (a pipe, terminal or file; not a socket such as journald's), else nowhere.
// - Background jobs of a non-interactive shell get /dev/null as stdin, so the pipe is kept on fd 3.
// - `wait -n -p` (bash 5.1) returns when either nats-server or the pipe watcher ends, or on a signal.
export const SUPERVISOR_SCRIPT = String.raw`
if [ "$(readlink /proc/$$/fd/2)" = /dev/null ] && (exec 2>>"/proc/$PPID/fd/2") 2>/dev/null; then
  exec 2>>"/proc/$PPID/fd/2" 1>&2
fi
exec 3<&0 0</dev/null
bin=$1 config=$2
shift 2
"$bin" -c "$config" "$@" & nats=$!
cat <&3 >/dev/null & lifeline=$!
exec 3<&-
trap 'kill -TERM "$nats" 2>/dev/null' TERM INT HUP
wait -n -p ended "$nats" "$lifeline"
status=$?
if [ "$ended" = "$nats" ]; then echo "bus supervisor: nats-server exited with status $status" >&2; fi
kill -TERM "$nats" "$lifeline" 2>/dev/null
for ((i = 0; i < 100; i++)); do kill -0 "$nats" 2>/dev/null || break; sleep 0.1; done
kill -KILL "$nats" 2>/dev/null
wait "$nats" 2>/dev/null
exit 0
`;

/**
 * Arguments of `bash` that run nats-server's config test (`-t`) and print its complaint on failure,
 * nothing on success: goja's exec throws away the output of a command that fails.
 */
export function configTestArgs(natsServer: string, configPath: string): string[] {
  return ["-c", 'out=$("$0" -t -c "$1" 2>&1) || printf "%s\\n" "$out"', natsServer, configPath];
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

/**
 * Arguments of `timeout` for one look at a NATS client port, through bash's /dev/tcp: goja has no TCP
 * client, and an HTTP request races the server's greeting (Go's client then logs an "unsolicited
 * response"). Prints nothing when nothing listens, else `connected:` and the first four bytes received.
 */
export function probeArgs(host: string, port: number): string[] {
  const script = 'exec 3<>"/dev/tcp/$0/$1" || exit 1; read -r -t 2 -N 4 greeting <&3; printf "connected:%s" "$greeting"';
  return ["3", "bash", "-c", script, host, String(port)];
}

/** What a probe printed says a NATS server listens: it speaks first, `INFO {...}`. */
export function answersLikeNats(probeOutput: string): boolean {
  return probeOutput === "connected:INFO";
}
