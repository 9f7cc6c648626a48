// How serve runs `litestream replicate` (pure): through a bash supervisor that dies with PocketBase, like
// the embedded bus's (bus/supervisor.ts says why bash and a pipe), and that, unlike it, starts Litestream
// again when it exits: replication must not stop for good because the replica was unreachable once.
// The waits back off from 1 s to 30 s, and start at 1 s again after a run of a minute or more.

/** How long Litestream gets after SIGTERM for its last upload (its shutdown-sync-timeout, 5 s, is shorter). */
export const STOP_GRACE_S = 8;

// $1: litestream binary, $2: config file.
// - Background jobs of a non-interactive shell get /dev/null as stdin, so the pipe is kept on fd 3.
// - `read -t 0.2 -u 3` returns 1 at the pipe's end (PocketBase gone) and more than 128 on its timeout.
export const REPLICATION_SUPERVISOR_SCRIPT = String.raw`
exec 3<&0 0</dev/null
bin=$1 config=$2
stopping=
trap 'stopping=1' TERM INT HUP
gone() { read -r -t 0.2 -u 3 _; [ $? -eq 1 ]; }
delay=1
while [ -z "$stopping" ]; do
  "$bin" replicate -config "$config" & child=$!
  started=$SECONDS
  while [ -z "$stopping" ] && kill -0 "$child" 2>/dev/null; do
    gone && stopping=1
  done
  if kill -0 "$child" 2>/dev/null; then
    kill -TERM "$child"
    for ((i = 0; i < STOP_GRACE * 10; i++)); do kill -0 "$child" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$child" 2>/dev/null
    wait "$child" 2>/dev/null
    break
  fi
  wait "$child"
  status=$?
  [ -n "$stopping" ] && break
  if (( SECONDS - started >= 60 )); then delay=1; fi
  echo "replication supervisor: litestream exited with status $status; starting it again in $delay s" >&2
  for ((i = 0; i < delay * 5; i++)); do gone && { stopping=1; break; }; done
  delay=$(( delay * 2 > 30 ? 30 : delay * 2 ))
done
exit 0
`.replace("STOP_GRACE", String(STOP_GRACE_S));

/** Arguments of `bash` for the supervisor; the name after the script becomes $0 (shown by ps). */
export function replicationSupervisorArgs(litestream: string, configPath: string): string[] {
  return ["-c", REPLICATION_SUPERVISOR_SCRIPT, "replication-supervisor", litestream, configPath];
}
