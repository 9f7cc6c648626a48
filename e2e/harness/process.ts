import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

export const REPO_ROOT = new URL("../../", import.meta.url).pathname;
export const BIN = {
  pocketbase: `${REPO_ROOT}bin/pocketbase`,
  natsServer: `${REPO_ROOT}bin/nats-server`,
  nebula: `${REPO_ROOT}bin/nebula`,
  nebulaCert: `${REPO_ROOT}bin/nebula-cert`,
};

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion (bounded by `timeoutMs`) and collects its output. */
export function run(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number; input?: string } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: options.env ?? process.env, cwd: options.cwd ?? REPO_ROOT });
    if (options.input !== undefined) child.stdin.end(options.input);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Stops a child process: SIGTERM, then SIGKILL if it lingers. */
export async function stop(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Pids of the processes whose command line has `arg` as one of its arguments (Linux /proc). */
export function processesWithArgument(arg: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").includes(arg)) pids.push(Number(entry));
    } catch {
      // exited while listing
    }
  }
  return pids;
}

/** The pids of the sidecar serve started for the platform of `dataDir` (the child of its serve process). */
export function sidecarPids(dataDir: string): number[] {
  const serve = processesWithArgument(dataDir);
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        return serve.includes(ppid) && readFileSync(`/proc/${entry}/cmdline`, "utf8").includes("sidecar");
      } catch {
        return false;
      }
    })
    .map(Number);
}
