// The agent's one health registry: components register their checks; every observability.interval all of
// them run concurrently, each bounded in time, and the results become the snapshot that /ready, /metrics
// and cmd.health read. Reading never runs a check. Body, ordering and status are the control plane's
// (common/readiness/report.ts).
import {
  NOT_PROBED_STATUS,
  notProbedBody,
  panicked,
  readinessBody,
  type CheckResult,
} from "../../../common/readiness/report";
import { httpStatus, worstState } from "../../../common/readiness/states";
import type { Logger } from "../lib/log";
import type { Check, CheckOutcome, ReadinessSource } from "./check";

/** How long one check may take before it counts as failed (spec 4.4: each check bounded, ≤ 2 s). */
export const CHECK_TIMEOUT_MS = 2_000;

/** The period between probes during the first interval after start while some check is not ok. */
export const STARTUP_PROBE_MS = 500;

export interface Snapshot {
  results: CheckResult[];
  probedAt: Date;
  tookMs: number;
  /** False iff some check fails. */
  ready: boolean;
}

export interface RegistryOptions {
  version: string;
  intervalMs: number;
  logger: Logger;
  timeoutMs?: number;
  startedAt?: Date;
  now?: () => Date;
}

export class HealthRegistry<Name extends string = string> implements ReadinessSource {
  private readonly checks = new Map<string, Check>();
  /** A check still running from an earlier probe is awaited, not started twice. */
  private readonly inflight = new Map<string, Promise<CheckOutcome>>();
  private last: Snapshot | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private running = false;
  private readonly timeoutMs: number;
  private readonly startedAt: Date;
  private readonly now: () => Date;

  constructor(private readonly options: RegistryOptions) {
    this.timeoutMs = options.timeoutMs ?? CHECK_TIMEOUT_MS;
    this.now = options.now ?? (() => new Date());
    this.startedAt = options.startedAt ?? this.now();
  }

  /** Adds a check; it runs from the next probe on. Names are unique. */
  register(check: Check<Name>): void {
    if (this.checks.has(check.name)) throw new Error(`a check named ${check.name} is registered already`);
    this.checks.set(check.name, check);
  }

  /**
   * Probes at once, then every interval (counted from the start of each probe) until stop(). Within the first
   * interval, a probe that finds a check not ok is followed by another after STARTUP_PROBE_MS: what is still
   * coming up at the first probe (a gateway's leaf and its uplink, the bus) is reported once it is up, not an
   * interval later.
   */
  start(): void {
    this.stopped = false;
    this.running = true;
    const begun = Date.now();
    const loop = async () => {
      const started = Date.now();
      const snapshot = await this.probe();
      if (this.stopped) return;
      const settling = started - begun < this.options.intervalMs && snapshot.results.some((result) => result.state !== "ok");
      const period = settling ? Math.min(STARTUP_PROBE_MS, this.options.intervalMs) : this.options.intervalMs;
      this.timer = setTimeout(loop, Math.max(0, period - (Date.now() - started)));
    };
    void loop();
  }

  stop(): void {
    this.stopped = true;
    this.running = false;
    clearTimeout(this.timer);
  }

  /**
   * Probes at once, between the interval's probes, once start() has run: a component whose state just
   * changed (the bus connected) is seen by /ready now, not up to a whole observability.interval later.
   * A check still running is awaited, not started twice.
   */
  refresh(): void {
    if (this.running) void this.probe();
  }

  /** Runs every check once, concurrently, and makes the results the snapshot. */
  async probe(): Promise<Snapshot> {
    const started = performance.now();
    const results = await Promise.all([...this.checks.values()].map((check) => this.runOne(check)));
    const snapshot: Snapshot = {
      results,
      probedAt: this.now(),
      tookMs: performance.now() - started,
      ready: !results.some((result) => result.state === "fail"),
    };
    this.logChanges(this.last, snapshot);
    this.last = snapshot;
    return snapshot;
  }

  /** The last snapshot; undefined before the first probe has finished. */
  snapshot(): Snapshot | undefined {
    return this.last;
  }

  report(): { status: number; body: object } {
    const snapshot = this.last;
    if (snapshot === undefined) return { status: NOT_PROBED_STATUS, body: notProbedBody(this.options.version, this.startedAt, this.now()) };
    const body = readinessBody({
      results: snapshot.results,
      version: this.options.version,
      startedAt: this.startedAt,
      probedAt: snapshot.probedAt,
      probeTookMs: snapshot.tookMs,
      now: this.now(),
    });
    return { status: httpStatus(worstState(snapshot.results.map((result) => result.state))), body };
  }

  private async runOne(check: Check): Promise<CheckResult> {
    const started = performance.now();
    let pending = this.inflight.get(check.name);
    if (pending === undefined) {
      // A synchronous throw inside run() becomes a rejection like an asynchronous one.
      pending = Promise.resolve().then(() => check.run());
      this.inflight.set(check.name, pending);
      const settled = pending;
      void settled.then(
        () => this.inflight.delete(check.name),
        () => this.inflight.delete(check.name),
      );
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), this.timeoutMs);
    });
    try {
      const outcome = await Promise.race([pending, timeout]);
      const tookMs = performance.now() - started;
      if (outcome === "timeout") {
        return {
          name: check.name,
          state: "fail",
          detail: `check did not answer within ${this.timeoutMs / 1000}s`,
          fix: "The check is stuck (a hung connection or disk); read the agent log. It is not started again until it answers.",
          tookMs,
        };
      }
      return { name: check.name, ...outcome, tookMs };
    } catch (err) {
      // The report carries the first line; the log the stack its fix sends the reader to.
      this.options.logger.error("check crashed", { check: check.name, stack: err instanceof Error && err.stack ? err.stack : String(err) });
      return panicked(check.name, err, performance.now() - started);
    } finally {
      clearTimeout(timer);
    }
  }

  private logChanges(before: Snapshot | undefined, after: Snapshot): void {
    const previous = new Map(before?.results.map((result) => [result.name, result.state]));
    for (const result of after.results) {
      const from = previous.get(result.name) ?? "unprobed";
      if (from === result.state) continue;
      const fields = { check: result.name, from, to: result.state, detail: result.detail };
      if (result.state === "fail" || result.state === "warn") this.options.logger.warn("check state changed", fields);
      else this.options.logger.info("check state changed", fields);
    }
  }
}
