// Child processes of the agent. Each one leads its own process group (spawn detached), so whatever it
// starts in turn is killed with it: a one-shot is bounded in time, a managed child is stopped with
// SIGTERM to the group, then SIGKILL after a grace.
import { spawn, type ChildProcess } from "node:child_process";

export interface ChildOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

export interface OneShotResult {
  /** Exit code; null when a signal ended it. */
  code: number | null;
  signal: NodeJS.Signals | null;
  /** At most OUTPUT_LIMIT bytes of each stream (the head). */
  stdout: string;
  stderr: string;
  /** True when the deadline passed and the group was killed. */
  timedOut: boolean;
}

/** Bytes of output kept per stream of a one-shot: enough for any message, bounded for a runaway child. */
export const OUTPUT_LIMIT = 64 * 1024;

/** Runs a command to completion, killing its whole group at `timeoutMs`. Rejects only when it cannot start. */
export function runBounded(command: string, args: readonly string[], options: ChildOptions & { timeoutMs: number; input?: string }): Promise<OneShotResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: options.env ?? process.env, cwd: options.cwd, detached: true, stdio: ["pipe", "pipe", "pipe"] });
    const stdout = collect(child.stdout);
    const stderr = collect(child.stderr);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child, "SIGKILL");
    }, options.timeoutMs);
    child.once("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.stdin.on("error", () => undefined); // a child that exits without reading its input
    child.stdin.end(options.input ?? "");
    child.once("exit", () => {
      // What the child left behind in its group would hold the pipes open and outlive it.
      killGroup(child, "SIGKILL");
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout: stdout(), stderr: stderr(), timedOut });
    });
  });
}

export interface ManagedChild {
  readonly pid: number;
  /** Settles when the child has exited (code, or the signal that ended it). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  running(): boolean;
  /** Sends a signal to the child's group (e.g. SIGHUP: nebula reloads its config). */
  signal(signal: NodeJS.Signals): void;
  /** SIGTERM to the group, SIGKILL after `graceMs`; resolves once the child has exited. */
  stop(graceMs?: number): Promise<void>;
}

export interface ManagedOptions extends ChildOptions {
  /** Each line the child writes (for the agent's log); lines are cut at OUTPUT_LIMIT. */
  onLine?(stream: "stdout" | "stderr", line: string): void;
}

export const STOP_GRACE_MS = 5_000;

/** Starts a long-running child (a daemon such as nebula). Throws when it cannot start (e.g. no such binary). */
export async function startManaged(command: string, args: readonly string[], options: ManagedOptions = {}): Promise<ManagedChild> {
  const child = spawn(command, args, { env: options.env ?? process.env, cwd: options.cwd, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  await new Promise<void>((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", reject);
  });
  const onLine = options.onLine ?? (() => undefined);
  forwardLines(child.stdout, (line) => onLine("stdout", line));
  forwardLines(child.stderr, (line) => onLine("stderr", line));
  let done = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => {
      done = true;
      resolve({ code, signal });
    });
  });
  const pid = child.pid as number; // set once "spawn" fired
  return {
    pid,
    exited,
    running: () => !done,
    signal: (signal) => {
      if (!done) killGroup(child, signal);
    },
    stop: async (graceMs = STOP_GRACE_MS) => {
      if (!done) {
        killGroup(child, "SIGTERM");
        const timer = setTimeout(() => killGroup(child, "SIGKILL"), graceMs);
        await exited;
        clearTimeout(timer);
      }
      // Anything the child started and left behind goes with it.
      killGroup(child, "SIGKILL");
    },
  };
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

function collect(stream: NodeJS.ReadableStream): () => string {
  const chunks: Buffer[] = [];
  let size = 0;
  stream.on("data", (chunk: Buffer) => {
    if (size >= OUTPUT_LIMIT) return;
    const kept = chunk.subarray(0, OUTPUT_LIMIT - size);
    chunks.push(kept);
    size += kept.length;
  });
  return () => Buffer.concat(chunks).toString("utf8");
}

function forwardLines(stream: NodeJS.ReadableStream, emit: (line: string) => void): void {
  let pending = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    pending += chunk;
    let newline = pending.indexOf("\n");
    while (newline >= 0) {
      emit(pending.slice(0, newline));
      pending = pending.slice(newline + 1);
      newline = pending.indexOf("\n");
    }
    if (pending.length > OUTPUT_LIMIT) {
      emit(pending.slice(0, OUTPUT_LIMIT));
      pending = "";
    }
  });
  stream.on("end", () => {
    if (pending !== "") emit(pending);
  });
}
