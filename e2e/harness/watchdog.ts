// A vitest reporter that keeps a long run legible when only the tail of its output is seen (CI keeps the last
// lines). It names a test file still running after STALL_MS with the test it is in, and says so when every
// file has ended but the run does not close (a worker that does not exit holds it). Past the deadline in
// TEST_DEADLINE_AT (epoch seconds, set by .ci/run inside CI's own limit) it prints the files still running
// and the process tree under the run, then cancels the run, so a hang ends as a failure that says where.
import { spawnSync } from "node:child_process";
import type { Reporter, TestCase, TestModule, TestSpecification, Vitest } from "vitest/node";

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

/** The processes descended from `root`, one per line, indented by depth: pid, state (ps STAT), age, command. */
function processTree(root: number): string[] {
  const listing = spawnSync("ps", ["-eo", "pid=,ppid=,stat=,etimes=,args="], { encoding: "utf8", timeout: 5_000 }).stdout ?? "";
  const children = new Map<number, Array<{ pid: number; line: string }>>();
  for (const row of listing.split("\n")) {
    const match = /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(\d+)\s+(.*)$/.exec(row);
    if (!match) continue;
    const [, pid, ppid, state, age, args] = match;
    const siblings = children.get(Number(ppid)) ?? [];
    siblings.push({ pid: Number(pid), line: `${pid} ${state} ${age}s ${args.slice(0, 160)}` });
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
  private files = 0;
  private ended = 0;
  private lastEnd = 0;
  private warnedClosing = false;
  private cancelled = false;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
    // Unreferenced: it never keeps a finished run alive, and it outlives onTestRunEnd to see a run that does not close.
    setInterval(() => this.check(), CHECK_EVERY_MS).unref();
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.files = specifications.length;
  }

  onTestModuleStart(module: TestModule): void {
    this.running.set(module.moduleId, { started: Date.now(), warned: 0 });
  }

  onTestModuleEnd(module: TestModule): void {
    this.running.delete(module.moduleId);
    this.ended++;
    this.lastEnd = Date.now();
  }

  onTestCaseReady(test: TestCase): void {
    const entry = this.running.get(test.module.moduleId);
    if (entry) entry.test = { name: test.fullName, started: Date.now() };
  }

  onTestRunEnd(): void {
    this.files = 0; // closed: nothing left to watch
  }

  private describe(now: number): string[] {
    const root = this.vitest?.config.root ?? process.cwd();
    const lines = [...this.running].map(([id, entry]) => {
      const at = entry.test ? `, in "${entry.test.name}" for ${minutes(now - entry.test.started)}` : ", no test reported started";
      return `  ${id.replace(`${root}/`, "")}: running for ${minutes(now - entry.started)}${at}`;
    });
    return [`  ${this.ended} of ${this.files} test files ended`, ...lines];
  }

  private check(): void {
    if (this.files === 0) return;
    const now = Date.now();
    const stalled = [...this.running.values()].filter((entry) => now - entry.started > STALL_MS && now - entry.warned > STALL_MS);
    if (stalled.length > 0) {
      for (const entry of stalled) entry.warned = now;
      console.log(`[watchdog] after ${minutes(now - this.runStarted)} of the run, still running:\n${this.describe(now).join("\n")}`);
    }
    if (this.ended === this.files && now - this.lastEnd > 3 * 60_000 && !this.warnedClosing) {
      this.warnedClosing = true;
      console.log(`[watchdog] every test file ended ${minutes(now - this.lastEnd)} ago and the run has not closed; processes under it:\n${processTree(process.pid).join("\n")}`);
    }
    if (this.deadline > 0 && now > this.deadline && !this.cancelled) this.cancel(now);
  }

  private cancel(now: number): void {
    this.cancelled = true;
    console.log(`[watchdog] processes under this run:\n${processTree(process.pid).join("\n")}`);
    console.log(`[watchdog] the run's deadline (TEST_DEADLINE_AT) passed after ${minutes(now - this.runStarted)}; cancelling:\n${this.describe(now).join("\n")}`);
    void this.vitest?.cancelCurrentRun("test-failure");
    setTimeout(() => {
      console.log("[watchdog] the cancelled run did not close; ending it");
      process.exit(1);
    }, CANCEL_GRACE_MS).unref();
  }
}
