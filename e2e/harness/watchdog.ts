// A vitest reporter that keeps a long run legible when only the tail of its output is seen (CI keeps the last
// lines): a test file still running after STALL_MS is named with the test it is in, and past the deadline
// in TEST_DEADLINE_AT (epoch seconds, set by .ci/run from CI's own limit) the run is cancelled with the
// files still running and the process tree printed, so a hang ends as a failure that says where it hung.
import { spawnSync } from "node:child_process";
import type { Reporter, TestCase, TestModule, Vitest } from "vitest/node";

const STALL_MS = 8 * 60_000;
const CHECK_EVERY_MS = 15_000;
/** After a cancel, how long the run has to close before the process is ended. */
const CANCEL_GRACE_MS = 90_000;

interface Running {
  started: number;
  warned: number;
  test?: { name: string; started: number };
}

const minutes = (ms: number) => `${(ms / 60_000).toFixed(1)} min`;

/** The processes descended from `root`, one per line and indented by depth, with their age in seconds. */
function processTree(root: number): string[] {
  const listing = spawnSync("ps", ["-eo", "pid=,ppid=,etimes=,args="], { encoding: "utf8", timeout: 5_000 }).stdout ?? "";
  const children = new Map<number, Array<{ pid: number; line: string }>>();
  for (const row of listing.split("\n")) {
    const match = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(.*)$/.exec(row);
    if (!match) continue;
    const [, pid, ppid, age, args] = match;
    const siblings = children.get(Number(ppid)) ?? [];
    siblings.push({ pid: Number(pid), line: `${pid} ${age}s ${args.slice(0, 160)}` });
    children.set(Number(ppid), siblings);
  }
  const lines: string[] = [];
  const walk = (pid: number, depth: number) => {
    for (const child of children.get(pid) ?? []) {
      lines.push(`${"  ".repeat(depth + 1)}${child.line}`);
      walk(child.pid, depth + 1);
    }
  };
  walk(root, 0);
  return lines;
}

export default class RunWatchdog implements Reporter {
  private vitest?: Vitest;
  private readonly running = new Map<string, Running>();
  private readonly runStarted = Date.now();
  private readonly deadline = Number(process.env.TEST_DEADLINE_AT ?? 0) * 1000;
  private timer?: NodeJS.Timeout;
  private cancelled = false;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
    this.timer = setInterval(() => this.check(), CHECK_EVERY_MS);
    this.timer.unref();
  }

  onTestModuleStart(module: TestModule): void {
    this.running.set(module.moduleId, { started: Date.now(), warned: 0 });
  }

  onTestModuleEnd(module: TestModule): void {
    this.running.delete(module.moduleId);
  }

  onTestCaseReady(test: TestCase): void {
    const entry = this.running.get(test.module.moduleId);
    if (entry) entry.test = { name: test.fullName, started: Date.now() };
  }

  onTestRunEnd(): void {
    clearInterval(this.timer);
  }

  private describe(now: number): string[] {
    const root = this.vitest?.config.root ?? process.cwd();
    return [...this.running].map(([id, entry]) => {
      const at = entry.test ? `, in "${entry.test.name}" for ${minutes(now - entry.test.started)}` : ", no test reported started";
      return `  ${id.replace(`${root}/`, "")}: running for ${minutes(now - entry.started)}${at}`;
    });
  }

  private check(): void {
    const now = Date.now();
    const stalled = [...this.running.values()].filter((entry) => now - entry.started > STALL_MS && now - entry.warned > STALL_MS);
    if (stalled.length > 0) {
      for (const entry of stalled) entry.warned = now;
      console.log(`[watchdog] after ${minutes(now - this.runStarted)} of the run, still running:\n${this.describe(now).join("\n")}`);
    }
    if (this.deadline > 0 && now > this.deadline && !this.cancelled) this.cancel(now);
  }

  private cancel(now: number): void {
    this.cancelled = true;
    console.log(`[watchdog] processes under this run:\n${processTree(process.pid).join("\n")}`);
    console.log(`[watchdog] the run's deadline (TEST_DEADLINE_AT) passed after ${minutes(now - this.runStarted)}; cancelling with these files unfinished:\n${this.describe(now).join("\n")}`);
    void this.vitest?.cancelCurrentRun("test-failure");
    setTimeout(() => {
      console.log("[watchdog] the cancelled run did not close; ending it");
      process.exit(1);
    }, CANCEL_GRACE_MS).unref();
  }
}
