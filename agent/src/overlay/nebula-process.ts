// One nebula process: spawned in its own process group (detached), so a stop reaches anything it started;
// its log lines are handed over as they arrive; `-test` of a config file is a bounded one-shot.
import { spawn, type ChildProcess } from "node:child_process";

export interface NebulaCommand {
  /** The nebula binary (config overlay.nebula). */
  binary: string;
  /** Words put before the binary, e.g. `ip netns exec <ns>` (tests); none in production. */
  launcher?: readonly string[];
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const STOP_GRACE_MS = 3_000;
const TEST_TIMEOUT_MS = 10_000;

function argv(command: NebulaCommand, args: string[]): [string, string[]] {
  const words = [...(command.launcher ?? []), command.binary, ...args];
  return [words[0], words.slice(1)];
}

/** Calls `onLine` for every complete line of the stream (nebula logs to stdout; stderr is read the same). */
function eachLine(stream: NodeJS.ReadableStream | null, onLine: (line: string) => void): void {
  let rest = "";
  stream?.on("data", (chunk: Buffer) => {
    const lines = (rest + chunk.toString("utf8")).split("\n");
    rest = lines.pop() ?? "";
    // A runaway line without a newline is cut rather than kept growing.
    if (rest.length > 65_536) rest = "";
    for (const line of lines) if (line) onLine(line);
  });
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

export class NebulaProcess {
  readonly exited: Promise<Exit>;
  private readonly child: ChildProcess;

  constructor(command: NebulaCommand, configPath: string, onLine: (line: string) => void) {
    const [file, args] = argv(command, ["-config", configPath]);
    this.child = spawn(file, args, { detached: true, stdio: ["ignore", "pipe", "pipe"] });
    this.exited = new Promise((resolve) => {
      this.child.once("error", (err) => {
        onLine(`agent: could not start nebula: ${err.message}`);
        resolve({ code: null, signal: null });
      });
      this.child.once("exit", (code, signal) => resolve({ code, signal }));
    });
    eachLine(this.child.stdout, onLine);
    eachLine(this.child.stderr, onLine);
  }

  get alive(): boolean {
    return this.child.pid !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** SIGHUP: nebula re-reads its config file. */
  reload(): void {
    signalGroup(this.child, "SIGHUP");
  }

  /** SIGTERM to the group, SIGKILL after a grace period; resolves once it exited. */
  async stop(): Promise<void> {
    if (!this.alive) return;
    signalGroup(this.child, "SIGTERM");
    const timer = setTimeout(() => signalGroup(this.child, "SIGKILL"), STOP_GRACE_MS);
    await this.exited;
    clearTimeout(timer);
  }
}

/** `nebula -test -config <path>`: null when nebula accepts the config, else its complaint (bounded in time). */
export function testConfig(command: NebulaCommand, configPath: string): Promise<string | null> {
  return new Promise((resolve) => {
    // Only the binary: parsing a config needs no namespace.
    const child = spawn(command.binary, ["-test", "-config", configPath], { detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const keep = (chunk: Buffer) => {
      if (output.length < 4_096) output += chunk.toString("utf8");
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    const timer = setTimeout(() => signalGroup(child, "SIGKILL"), TEST_TIMEOUT_MS);
    child.once("error", (err) => {
      clearTimeout(timer);
      resolve(`could not run ${command.binary}: ${err.message}`);
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(null);
      else resolve(signal ? `nebula -test did not finish within ${TEST_TIMEOUT_MS / 1000} s` : lastErrorLine(output) || `nebula -test exited with ${code}`);
    });
  });
}

/**
 * The last line of the output that says what went wrong. Long base64 runs are cut out: a parser's
 * complaint could quote a piece of the config, and the config holds the host's private key.
 */
function lastErrorLine(output: string): string {
  const lines = output.split("\n").filter((l) => l.trim());
  const line = lines.filter((l) => /level=(ERROR|FATAL)|error/i.test(l)).pop() ?? lines.pop() ?? "";
  return line.replace(/[A-Za-z0-9+/=]{32,}/g, "…").slice(0, 500);
}
