// The readiness prober (spec 3.2, 4.3, 8.1). goja has no timer and no concurrency, so the sidecar keeps
// the schedule: every intervalMs it asks PocketBase to run each check, all at once and each in its own
// request (so each runs in its own hook VM), waits at most timeoutMs for the lot, and posts the snapshot
// back. The checks themselves run inside PocketBase, which answers them first-hand.
import { formatDuration } from "../common/readiness/duration-text";
import { CHECK_PATH, SNAPSHOT_PATH } from "../common/sidecar/routes";
import { panicked, type CheckResult } from "../common/readiness/report";
import { CHECK_STATES, type CheckState } from "../common/readiness/states";
import type { ProbeSettings } from "../common/sidecar/protocol";

export { CHECK_PATH, SNAPSHOT_PATH } from "../common/sidecar/routes";
/** Until a first snapshot has landed, a probe that could not deliver one is repeated this often. */
export const FIRST_PROBE_RETRY_MS = 25;

export interface PostAnswer {
  status: number;
  body: string;
}
/** POSTs JSON to PocketBase at `path`; rejects when PocketBase cannot be reached. */
export type Post = (path: string, body: unknown) => Promise<PostAnswer>;

export interface ProberDeps {
  post: Post;
  now: () => number;
}

export const TIMEOUT_FIX = "Find what the check waits on (the detail names the deadline): a locked database, a bus that accepts connections but does not answer.";
export const STILL_RUNNING_FIX = "The check has not returned since an earlier probe; find what it waits on before it piles up.";

export class Prober {
  /** Checks whose request has not come back yet, with when it was sent: never sent twice at once. */
  private readonly running = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private landedOnce = false;

  constructor(
    private readonly settings: ProbeSettings,
    private readonly deps: ProberDeps,
  ) {}

  /** Probes now, then every intervalMs (start to start); retries quickly until the first snapshot lands. */
  start(): void {
    void this.tick();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private async tick(): Promise<void> {
    const started = this.deps.now();
    const landed = await this.probe().then(
      () => true,
      () => false,
    );
    if (this.stopped) return;
    this.landedOnce ||= landed;
    const wait = this.landedOnce ? Math.max(0, started + this.settings.intervalMs - this.deps.now()) : FIRST_PROBE_RETRY_MS;
    this.timer = setTimeout(() => void this.tick(), wait);
  }

  /** One probe: every check concurrently, bounded as a whole by timeoutMs, then the snapshot. */
  async probe(): Promise<void> {
    const started = this.deps.now();
    const deadline = started + this.settings.timeoutMs;
    const results = await Promise.all(this.settings.checks.map((name) => this.check(name, deadline)));
    const answer = await this.deps.post(SNAPSHOT_PATH, { results, tookMs: this.deps.now() - started });
    if (answer.status !== 200) throw new Error(`the snapshot was refused with ${answer.status}`);
  }

  private check(name: string, deadline: number): Promise<CheckResult> {
    const since = this.running.get(name);
    if (since !== undefined) {
      return Promise.resolve({
        name,
        state: "fail",
        detail: `still running since an earlier probe ${formatDuration(this.deps.now() - since)} ago`,
        fix: STILL_RUNNING_FIX,
        tookMs: 0,
      });
    }
    const started = this.deps.now();
    this.running.set(name, started);
    const answered = this.deps
      .post(`${CHECK_PATH}${encodeURIComponent(name)}`, {})
      .then((answer) => readResult(name, answer, this.deps.now() - started))
      .catch((err: unknown) => panicked(name, err, this.deps.now() - started))
      .finally(() => this.running.delete(name));
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<CheckResult>((resolve) => {
      timer = setTimeout(
        () =>
          resolve({
            name,
            state: "fail",
            detail: `did not finish within ${formatDuration(this.settings.timeoutMs)} (readiness.timeout)`,
            fix: TIMEOUT_FIX,
            tookMs: this.deps.now() - started,
          }),
        Math.max(0, deadline - this.deps.now()),
      );
    });
    return Promise.race([answered, expired]).finally(() => clearTimeout(timer));
  }
}

/**
 * A check's answer. PocketBase answers 200 with the result; anything else means the check's request
 * itself failed (a throw that escaped the check), which counts as a panic: fail, with the message.
 */
export function readResult(name: string, answer: PostAnswer, tookMs: number): CheckResult {
  let value: unknown;
  try {
    value = JSON.parse(answer.body);
  } catch {
    value = undefined;
  }
  if (answer.status === 200 && isResult(value, name)) return value;
  const message = typeof (value as { message?: unknown } | undefined)?.message === "string" ? (value as { message: string }).message : `status ${answer.status}`;
  return panicked(name, new Error(message), tookMs);
}

function isResult(value: unknown, name: string): value is CheckResult {
  if (typeof value !== "object" || value === null) return false;
  const r = value as Record<string, unknown>;
  return (
    r.name === name &&
    CHECK_STATES.includes(r.state as CheckState) &&
    typeof r.tookMs === "number" &&
    (r.detail === undefined || typeof r.detail === "string") &&
    (r.fix === undefined || typeof r.fix === "string")
  );
}
