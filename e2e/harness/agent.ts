// Runs the real agent bundle (agent/dist/agent.mjs, built by `make agent`) as a child process and reads
// its JSON log lines. Node gets the flags the service unit gives it (agent/src/service/node-flags.ts).
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import type PocketBase from "pocketbase";
import { runBounded } from "../../agent/src/lib/child";
import { AGENT_NODE_FLAGS } from "../../agent/src/service/node-flags";
import { join } from "node:path";
import { freePort } from "./ports";
import { checkBecomes } from "./readiness";
import { REPO_ROOT } from "./process";
import { unique, type World } from "./world";

export const AGENT_BUNDLE = `${REPO_ROOT}agent/dist/agent.mjs`;

export type LogLine = Record<string, unknown> & { level: string; msg: string };

export interface AgentProcess {
  readonly child: ChildProcess;
  /** Parsed JSON log lines so far (stderr). */
  readonly logs: LogLine[];
  /** Raw stderr and stdout so far. */
  stderr(): string;
  stdout(): string;
  /** Resolves with the first log line matching, or rejects after `ms`. */
  waitForLog(match: (line: LogLine) => boolean, ms?: number): Promise<LogLine>;
  /** Resolves with the exit status (or the signal name). */
  readonly exited: Promise<number | string>;
  /** SIGTERM, SIGKILL after `graceMs`; resolves with the exit status. */
  stop(graceMs?: number): Promise<number | string>;
}

interface AgentOptions {
  env?: Record<string, string>;
  cwd?: string;
  /**
   * Runs the agent, and the processes it starts, in a mount namespace where this file is /etc/hosts: a
   * host name with several addresses, as DNS serves a name with a record per hub node. Needs root.
   */
  hostsFile?: string;
}

/** The bundle's environment: only the variables given (a developer's AGENT_* must not leak into the test). */
function agentEnv(options: AgentOptions): NodeJS.ProcessEnv {
  if (!existsSync(AGENT_BUNDLE)) throw new Error(`${AGENT_BUNDLE} is missing: run make agent`);
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", ...options.env };
}

/** `command` in a mount namespace of its own whose /etc/hosts is `hostsFile`; exec all the way, so the pid is the command's. */
function withHostsFile(hostsFile: string | undefined, command: string[]): string[] {
  if (hostsFile === undefined) return command;
  if (process.getuid && process.getuid() !== 0) throw new Error(`an agent with its own /etc/hosts needs root (a mount namespace; running as uid ${process.getuid()})`);
  return ["unshare", "--mount", "--propagation", "private", "--", "/bin/sh", "-c", 'mount --bind "$0" /etc/hosts && exec "$@"', hostsFile, ...command];
}

/** Runs an agent command to completion (e.g. `enroll`) with `input` on stdin, bounded in time; code -1 when killed. */
export async function runAgent(args: string[], input: string, options: AgentOptions = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const result = await runBounded(process.execPath, [...AGENT_NODE_FLAGS, AGENT_BUNDLE, ...args], { env: agentEnv(options), cwd: options.cwd ?? REPO_ROOT, input, timeoutMs: 20_000 });
  return { code: result.code ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** What POST /api/org/things answers: the Thing and its password, shown once. */
export interface MadeThing {
  id: string;
  code: string;
  email: string;
  password: string;
}

/** Creates a Thing as `owner` (an organization's owner) does, through POST /api/org/things (`body`: name, bus, overlay). */
export async function postThing(owner: PocketBase, body: Record<string, unknown>): Promise<MadeThing> {
  return (await owner.send("/api/org/things", { method: "POST", body })) as MadeThing;
}

/** The same as the world's org A owner. */
export async function createThing(w: World, body: Record<string, unknown>): Promise<MadeThing> {
  return postThing(await w.client("owner"), body);
}

/** `agent enroll` with the Thing's one-time password on stdin, as an operator types it; answers its stdout. */
export async function enrollAgent(platformUrl: string, thing: Pick<MadeThing, "email" | "password">, stateDir: string): Promise<string> {
  const enrolled = await runAgent(["enroll", "--platform", platformUrl, "--email", thing.email, "--state-dir", stateDir], `${thing.password}\n`);
  if (enrolled.code !== 0) throw new Error(`agent enroll exited ${enrolled.code}: ${enrolled.stderr}`);
  return enrolled.stdout;
}

/**
 * `agent run` on an enrolled state_dir, its /ready and /metrics on `port` (a free one by default) at `url`,
 * probed every 500 ms; `env` adds the scenario's settings.
 */
export async function runEnrolled(stateDir: string, env: Record<string, string>, options: Pick<AgentOptions, "hostsFile"> = {}): Promise<{ agent: AgentProcess; url: string }> {
  const observed = await freePort();
  const agent = startAgent(["run"], {
    ...options,
    env: { AGENT_STATE_DIR: stateDir, AGENT_OBSERVABILITY_ADDR: `127.0.0.1:${observed}`, AGENT_OBSERVABILITY_INTERVAL: "500ms", ...env },
  });
  return { agent, url: `http://127.0.0.1:${observed}` };
}

/**
 * A Thing with a bus identity created by `owner` through POST /api/org/things, enrolled into
 * `scratch/<code>` and running `agent run` against the hub at `busUrl` (overlay off, `env` added), once its
 * bus check is ok.
 */
export async function runBusDevice(platformUrl: string, busUrl: string, owner: PocketBase, scratch: string, env: Record<string, string>): Promise<{ made: MadeThing; stateDir: string; agent: AgentProcess; url: string }> {
  const made = await postThing(owner, { name: unique("device"), bus: { mode: "auto" } });
  const stateDir = join(scratch, made.code);
  await enrollAgent(platformUrl, made, stateDir);
  const { agent, url } = await runEnrolled(stateDir, { AGENT_BUS_SERVERS: busUrl, AGENT_OVERLAY_ENABLED: "false", ...env });
  try {
    await checkBecomes(url, "bus", "ok", { path: "/ready", withinMs: 20_000 });
  } catch (err) {
    await agent.stop();
    throw err;
  }
  return { made, stateDir, agent, url };
}

export function startAgent(args: string[], options: AgentOptions = {}): AgentProcess {
  const env = agentEnv(options);
  const [file, ...argv] = withHostsFile(options.hostsFile, [process.execPath, ...AGENT_NODE_FLAGS, AGENT_BUNDLE, ...args]);
  const child = spawn(file, argv, { env, cwd: options.cwd ?? REPO_ROOT, stdio: ["ignore", "pipe", "pipe"] });
  const logs: LogLine[] = [];
  const waiters: Array<{ match: (line: LogLine) => boolean; resolve: (line: LogLine) => void }> = [];
  let stderr = "";
  let stdout = "";
  let pending = "";
  child.stdout?.on("data", (chunk) => (stdout += chunk));
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk;
    pending += chunk;
    let newline = pending.indexOf("\n");
    while (newline >= 0) {
      const text = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      newline = pending.indexOf("\n");
      let line: LogLine;
      try {
        line = JSON.parse(text) as LogLine;
      } catch {
        continue; // not a log line (a usage message)
      }
      logs.push(line);
      for (const waiter of [...waiters]) {
        if (waiter.match(line)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    }
  });
  const exited = new Promise<number | string>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown")));
  return {
    child,
    logs,
    stderr: () => stderr,
    stdout: () => stdout,
    exited,
    waitForLog: (match, ms = 10_000) => {
      const found = logs.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching agent log line within ${ms} ms; stderr:\n${stderr}`)), ms);
        waiters.push({ match, resolve: (line) => (clearTimeout(timer), resolve(line)) });
      });
    },
    stop: async (graceMs = 5_000) => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
        const status = await exited;
        clearTimeout(timer);
        return status;
      }
      return exited;
    },
  };
}
