/// <reference path="../../build/types/types.d.ts" />
// The goja client of the platform sidecar (sidecar/, docs/sidecar.md): a Node process on 127.0.0.1 that
// does what goja cannot (curve crypto, a NATS connection), reached synchronously with $http.send.
//
// One sidecar per PocketBase process, recorded in $app.store(), which every VM of the process shares (Go
// objects stored there, like the process and its stdin pipe, stay usable from any VM). Starting happens
// inside store.setFunc, which holds the store's lock, so two VMs never start two sidecars; it blocks other
// store users for the ~0.1-0.2 s a start takes, and only then. Under serve the sidecar is spawned at
// bootstrap and recorded as pending: serve listens without waiting for it, and the first call waits.
import type { HealthResponse, ProbeSettings, StartupLine } from "../../common/sidecar/protocol";
import {
  SidecarUnavailableError,
  deliveryFailure,
  isExecutableMissing,
  isZombieStat,
  lastLines,
  parseState,
  readAnswer,
  reasonOf,
} from "./sidecar-messages";

export { SidecarError, SidecarUnavailableError } from "./sidecar-messages";

const STORE_KEY = "platform.sidecar";
const PROBE_KEY = "platform.sidecar.probe";
const START_TIMEOUT_MS = 5_000;
const POLL_MS = 10;
const HEALTH_TIMEOUT_SECONDS = 2;
const NAME_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
// goja converts a JS number to Go's os.FileMode (a uint32); the generated types model its methods only.
const PRIVATE_DIR = 0o700 as unknown as os.FileMode;

/** The write end of the sidecar's stdin; the generated io.WriteCloser type is untyped. */
interface PipeWriter {
  write(data: string): number;
  close(): void;
}

interface Sidecar {
  url: string;
  token: string;
  pid: number;
  stateFile: string;
  cmd: exec.Cmd;
  /**
   * Held for the sidecar's whole life: the sidecar exits when this pipe closes, which the kernel does
   * however PocketBase ends (kill -9 included). Go would also close it if it were garbage-collected.
   */
  stdin: PipeWriter;
}

/** Spawned at serve's bootstrap; the first caller waits for its handshake (see startSidecarWithServe). */
interface Pending extends Starting {
  pending: true;
}

/** $app.store() holds values of any type; this key holds a Sidecar, a Pending one, or null after a failed start. */
const sidecars = () => $app.store() as store.Store<string, Sidecar | Pending | null>;

/**
 * Calls a sidecar endpoint: POST with `body` as JSON, or GET when `body` is undefined. Starts the sidecar
 * if needed. A request that did not reach a working sidecar is sent again: once on a new connection when
 * a kept-alive one broke, then once to a restarted sidecar when nothing listens (every v1 endpoint is safe
 * to repeat). Throws SidecarUnavailableError when it cannot be reached, SidecarError when it answers with
 * an error; neither message contains the body.
 */
export function sidecarCall<T>(path: string, body: unknown, timeoutSeconds = 5): T {
  return sidecarCallWithText<T>(path, body === undefined ? undefined : JSON.stringify(body), timeoutSeconds);
}

/** sidecarCall with the body already serialized (JSON text), for a caller that splices stored JSON in. */
export function sidecarCallWithText<T>(path: string, text: string | undefined, timeoutSeconds = 5): T {
  let sidecar = running();
  let outcome = send(sidecar, path, text, timeoutSeconds);
  if (outcome.failure === "broken") outcome = send(sidecar, path, text, timeoutSeconds);
  if (outcome.failure) {
    sidecar = restart(sidecar);
    outcome = send(sidecar, path, text, timeoutSeconds);
    if (outcome.failure) throw new SidecarUnavailableError(`it does not answer even after a restart: ${outcome.message}`);
  }
  return readAnswer<T>(path, outcome.response.statusCode, toString(outcome.response.body));
}

/** Starts the sidecar unless this process already has one. */
export function ensureSidecar(): void {
  running();
}

/**
 * For onBootstrap: under `serve`, spawn the sidecar before the first request needs it, without waiting
 * for it (Node's start is ~0.1-0.2 s that serve's listener need not wait for): it is recorded as pending,
 * and the first call waits for its handshake. A spawn that fails is logged and serving goes on; every
 * sidecar call retries the start and fails with the same plain message. Other commands start it on first
 * use only. With `probe`, the sidecar also runs the readiness prober.
 */
export function startSidecarWithServe(probe?: () => ProbeSettings): void {
  if (!$os.args.includes("serve")) return;
  try {
    // Kept for every later launch too: a restarted sidecar must go on probing.
    const settings = probe?.();
    if (settings) $app.store().set(PROBE_KEY, settings);
    const pending: Pending = { ...spawn(settings), pending: true };
    sidecars().setFunc(STORE_KEY, (current) => {
      if (!current) return pending;
      discard(pending); // another VM started one meanwhile
      return current;
    });
  } catch (err) {
    logFailure(err);
  }
}

function logFailure(err: unknown): void {
  console.error(err instanceof Error ? err.message : String(err));
}

/** Whether an Authorization header carries the running sidecar's token (its calls back into PocketBase). */
export function isSidecarAuthorization(header: string): boolean {
  const sidecar = sidecars().get(STORE_KEY);
  return !!sidecar && $security.equal(header, `Bearer ${sidecar.token}`);
}

/** Stops this process's sidecar, if any. */
export function stopSidecar(): void {
  sidecars().setFunc(STORE_KEY, (current) => {
    if (current) discard(current);
    return null;
  });
}

function running(): Sidecar {
  const current = sidecars().get(STORE_KEY);
  return current && !isPending(current) ? current : replace(null);
}

// A Go map when read back from the store: `pending` is simply absent on a Sidecar.
function isPending(entry: Sidecar | Pending): entry is Pending {
  return (entry as Partial<Pending>).pending === true;
}

/** Replaces `stale` (a sidecar that did not answer) unless another VM has done so already. */
function restart(stale: Sidecar): Sidecar {
  return replace(stale.token);
}

/**
 * Under the store's lock: keeps the current sidecar unless it is the one with token `staleToken` (or there
 * is none), otherwise stops it and launches a new one. A pending one is waited for first; when its start
 * failed, that is logged (as serve's start would have) and a new one is launched. A failed launch leaves
 * null, so the next call tries again.
 */
function replace(staleToken: string | null): Sidecar {
  let failure: unknown;
  // Read before setFunc: the store's lock is held inside it and is not reentrant.
  const probe = $app.store().get(PROBE_KEY) as ProbeSettings | undefined;
  sidecars().setFunc(STORE_KEY, (current) => {
    if (current && isPending(current)) {
      try {
        return handshake(current);
      } catch (err) {
        logFailure(err);
      }
    } else if (current && current.token !== staleToken) {
      return current;
    } else if (current) {
      stop(current);
    }
    try {
      return launch(probe);
    } catch (err) {
      failure = err;
      return null;
    }
  });
  const sidecar = sidecars().get(STORE_KEY);
  if (!sidecar || isPending(sidecar)) throw failure instanceof SidecarUnavailableError ? failure : new SidecarUnavailableError(reasonOf(failure));
  return sidecar;
}

/** Starts `node sidecar.cjs` and waits (bounded) until it answers. */
function launch(probe: ProbeSettings | undefined): Sidecar {
  return handshake(spawn(probe));
}

/** A sidecar process started and handed its startup line, not yet known to answer. */
type Starting = Pick<Sidecar, "token" | "stateFile" | "cmd" | "stdin"> & { logFile: string };

/** Starts the process and hands it the token on stdin; returns at once. */
function spawn(probe: ProbeSettings | undefined): Starting {
  const dir = $filepath.join($app.dataDir(), ".sidecar");
  $os.mkdirAll(dir, PRIVATE_DIR);
  const name = $security.randomStringWithAlphabet(16, NAME_ALPHABET);
  const stateFile = $filepath.join(dir, `${name}.json`);
  const logFile = $filepath.join(dir, `${name}.log`);
  const token = $security.randomString(48);

  // --lite-mode (no optimizing compiler): ~12 MB less resident memory at idle for ~0.2 ms more per
  // call (docs/performance.md "Start and footprint"). It conflicts with WebAssembly, which Node then
  // turns off with a warning on stderr; the sidecar uses none, so it is turned off quietly.
  const cmd = $os.cmd("node", "--lite-mode", "--no-expose-wasm", `${__hooks}/sidecar/sidecar.cjs`);
  // Its stderr goes to a file for the one case it matters: a start that fails (a wrong Node, a broken bundle).
  const root = $os.openRoot(dir);
  const log = root.create(`${name}.log`);
  root.close();
  cmd.stderr = log;
  const stdin = cmd.stdinPipe() as PipeWriter;
  try {
    cmd.start();
  } catch (err) {
    log.close();
    removeQuietly(logFile);
    const message = reasonOf(err);
    throw new SidecarUnavailableError(
      isExecutableMissing(message) ? "Node.js 20 or later is required and `node` is not on PATH" : `it could not be started: ${message}`,
    );
  }
  log.close(); // the child has its own descriptor

  const starting: Starting = { token, stateFile, cmd, stdin, logFile };
  try {
    const line: StartupLine = probe ? { token, stateFile, probe } : { token, stateFile };
    stdin.write(`${JSON.stringify(line)}\n`);
    return starting;
  } catch (err) {
    throw failedStart(starting, err);
  }
}

/** Waits (bounded) until the started process has written its state file and answers on its port. */
function handshake(starting: Starting): Sidecar {
  const { token, stateFile, cmd, stdin, logFile } = starting;
  try {
    const state = awaitState(stateFile, cmd.process?.pid ?? 0);
    const sidecar: Sidecar = { token, stateFile, cmd, stdin, url: `http://127.0.0.1:${state.port}`, pid: state.pid };
    checkHealth(sidecar);
    removeQuietly(logFile);
    return sidecar;
  } catch (err) {
    throw failedStart(starting, err);
  }
}

/** Stops a start that went wrong; the error carries the end of the process's own output. */
function failedStart(starting: Starting, err: unknown): SidecarUnavailableError {
  stop(starting);
  const output = lastLines(readText(starting.logFile) ?? "");
  removeQuietly(starting.logFile);
  return new SidecarUnavailableError(`${reasonOf(err)}${output ? ` (its output: ${output})` : ""}`);
}

/** Polls the state file; gives up at the deadline, or at once when the process has exited (seen on Linux). */
function awaitState(stateFile: string, pid: number): { port: number; pid: number } {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const state = parseState(readText(stateFile));
    if (state && "error" in state) throw new Error(`it could not start: ${state.error}`);
    if (state) return state;
    if (isZombieStat(readText(`/proc/${pid}/stat`))) throw new Error("it exited while starting");
    if (Date.now() > deadline) throw new Error(`it did not start within ${START_TIMEOUT_MS / 1000} s`);
    sleep(POLL_MS);
  }
}

function checkHealth(sidecar: Sidecar): void {
  const outcome = send(sidecar, "/v1/health", undefined, HEALTH_TIMEOUT_SECONDS);
  if (outcome.failure) throw new Error(`it does not answer: ${outcome.message}`);
  const health = readAnswer<HealthResponse>("/v1/health", outcome.response.statusCode, toString(outcome.response.body));
  if (health.pid !== sidecar.pid) throw new Error("another process answers on its port");
}

/** Stops a sidecar, and removes the start log a pending one still has. */
function discard(entry: Sidecar | Pending): void {
  stop(entry);
  if (isPending(entry)) removeQuietly(entry.logFile);
}

/** Closing stdin asks the sidecar to exit, the kill makes sure, and wait reaps the process. */
function stop(sidecar: Pick<Sidecar, "cmd" | "stdin" | "stateFile">): void {
  quietly(() => sidecar.stdin.close());
  quietly(() => sidecar.cmd.process?.kill());
  quietly(() => sidecar.cmd.wait());
  removeQuietly(sidecar.stateFile);
}

type Outcome =
  | { failure?: undefined; response: ReturnType<typeof $http.send> }
  | { failure: "refused" | "broken"; message: string };

function send(sidecar: Pick<Sidecar, "url" | "token">, path: string, body: string | undefined, timeoutSeconds: number): Outcome {
  try {
    const response = $http.send({
      url: `${sidecar.url}${path}`,
      method: body === undefined ? "GET" : "POST",
      body: body ?? "",
      headers: { authorization: `Bearer ${sidecar.token}`, "content-type": "application/json" },
      // Whole seconds; 0 would mean PocketBase's default of 120.
      timeout: Math.max(1, Math.ceil(timeoutSeconds)),
    });
    return { response };
  } catch (err) {
    // Go's client error names the method, URL and cause, never the body or headers.
    const message = reasonOf(err);
    const failure = deliveryFailure(message);
    if (failure) return { failure, message };
    throw new SidecarUnavailableError(message);
  }
}

function readText(path: string): string | undefined {
  try {
    return toString($os.readFile(path));
  } catch {
    return undefined; // not written yet, or no /proc
  }
}

function removeQuietly(path: string): void {
  quietly(() => $os.remove(path));
}

/** For cleanup steps whose failure changes nothing (already closed, already exited, already removed). */
function quietly(step: () => unknown): void {
  try {
    step();
  } catch {
    // see above
  }
}
