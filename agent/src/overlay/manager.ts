// Runs the host's nebula from the config text the platform serves (docs/overlay.md "The agent's nebula"):
// writes it (config.yml), reloads or restarts nebula when it changes, keeps the last config that brought a
// lighthouse handshake (last-good.yml) and returns to it when a new one brings none within the handshake
// timeout; restarts a nebula that died, with back-off. Every operation runs one at a time (a queue).
import { unlinkSync } from "node:fs";
import type { ManagedChild } from "../lib/child";
import type { Logger, LogFields } from "../lib/log";
import { restartDelay, nextFailures } from "./backoff";
import { applyMode, lighthouseAddrs, parseConfig } from "./config-diff";
import { readIfPresent, writeFileAtomic } from "../lib/files";
import { overlayFiles, type OverlayFiles } from "./config-files";
import { NEBULA_STOP_GRACE_MS, NebulaNotRun, startNebula, testConfig, type NebulaCommand } from "./nebula-process";
import { judgeTrial, type Trial } from "./trial";
import { Tunnels } from "./tunnels";

export interface OverlayManagerOptions {
  nebula: NebulaCommand;
  /** state-paths.ts overlayDir. */
  overlayDir: string;
  /** overlay.handshake_timeout in milliseconds. */
  handshakeTimeoutMs: number;
  logger: Logger;
  now?: () => number;
}

/** What the overlay check reads. */
export interface OverlayStatus {
  /** A config is held or was refused (from the platform or cached on disk): the Thing has an overlay host. */
  configured: boolean;
  running: boolean;
  /** Running the config found on disk at start, not (yet) confirmed by the platform. */
  cached: boolean;
  /** Why the platform's latest config is not the one running (refused or rolled back); null when it is. */
  rejected: string | null;
  /** Why the platform's latest config waits untested (nebula could not be run), and when it is tried again. */
  deferred: string | null;
  /** The running config never brought a lighthouse handshake and there was nothing to return to. */
  unproven: boolean;
  tunnels: number;
  /** How nebula last exited on its own, while it is down; null while it runs. */
  exit: string | null;
}

/** deferred: nebula could not be run to test the config; the manager tries the config again by itself. */
export type ApplyResult = "unchanged" | "reloaded" | "restarted" | "refused" | "deferred";

interface Pending extends Trial {
  text: string;
  lighthouses: string[];
  unproven: boolean;
}

export interface OverlayManager {
  /** Runs config.yml left by enrollment or an earlier run, if any, as a cached config. */
  start(): Promise<void>;
  /** Adopts the platform's config text (the platform sync calls it when the host's config changed). */
  apply(yaml: string): Promise<ApplyResult>;
  status(): OverlayStatus;
  /** Stops nebula (process group) and every timer; the manager is done. */
  stop(): Promise<void>;
}

export function createOverlayManager(options: OverlayManagerOptions): OverlayManager {
  return new Manager(options);
}

class Manager implements OverlayManager {
  private readonly files: OverlayFiles;
  private readonly now: () => number;
  private readonly tunnels = new Tunnels();
  private queue: Promise<unknown> = Promise.resolve();
  private running: string | null = null;
  private lastGood: string | null = null;
  private cached = false;
  private rejectedText: string | null = null;
  private rejected: string | null = null;
  /** The config waiting for a nebula that could be run to test it, why, and the tries so far. */
  private deferredText: string | null = null;
  private deferred: string | null = null;
  private deferrals = 0;
  private deferTimer: NodeJS.Timeout | undefined;
  private pending: Pending | null = null;
  private proc: ManagedChild | null = null;
  private procStartedAt = 0;
  private exit: string | null = null;
  private failures = 0;
  private trialTimer: NodeJS.Timeout | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly options: OverlayManagerOptions) {
    this.files = overlayFiles(options.overlayDir);
    this.now = options.now ?? Date.now;
  }

  private serial<T>(task: () => Promise<T> | T): Promise<T> {
    const run = this.queue.then(task);
    this.queue = run.catch((err: unknown) => this.options.logger.error("overlay: internal error", { error: String(err) }));
    return run;
  }

  start(): Promise<void> {
    return this.serial(async () => {
      this.lastGood = readIfPresent(this.files.lastGood) ?? null;
      const onDisk = readIfPresent(this.files.config);
      if (onDisk === undefined) return;
      this.cached = true;
      const result = await this.switchTo(onDisk);
      // A config.yml nebula refuses (a nebula upgraded under it, say): the last good one instead.
      if (result === "refused" && this.lastGood !== null && this.lastGood !== onDisk) await this.switchTo(this.lastGood);
    });
  }

  apply(yaml: string): Promise<ApplyResult> {
    return this.serial(async () => {
      if (this.stopped) return "unchanged";
      // A config that waited for nebula is not applied once the platform serves another.
      if (yaml !== this.deferredText) this.dropDeferred();
      if (yaml === this.running) {
        this.cached = false;
        return "unchanged";
      }
      // Refused or rolled back already: trying it again every refresh would break the overlay each time.
      if (yaml === this.rejectedText) return "unchanged";
      this.cached = false;
      return this.switchTo(yaml);
    });
  }

  status(): OverlayStatus {
    return {
      configured: this.running !== null || this.rejectedText !== null || this.deferredText !== null,
      running: this.proc?.running() ?? false,
      cached: this.cached,
      rejected: this.rejected,
      deferred: this.deferred,
      unproven: this.pending?.unproven ?? false,
      tunnels: this.tunnels.count,
      exit: this.exit,
    };
  }

  stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.trialTimer);
    clearTimeout(this.restartTimer);
    clearTimeout(this.deferTimer);
    return this.serial(async () => {
      const proc = this.proc;
      this.proc = null;
      await proc?.stop(NEBULA_STOP_GRACE_MS);
    });
  }

  private refuse(yaml: string, reason: string): ApplyResult {
    this.rejectedText = yaml;
    this.rejected = reason;
    this.options.logger.warn("overlay: new config refused, nebula keeps its current one", { reason });
    return "refused";
  }

  /**
   * nebula could not be run to judge `yaml`: the config is not refused (it may be fine), and the platform
   * serves it only once, so it is tried again after a back-off until nebula runs or a newer config comes.
   */
  private defer(yaml: string, reason: string): ApplyResult {
    this.deferredText = yaml;
    this.deferrals += 1;
    const delay = restartDelay(this.deferrals);
    this.deferred = `${reason}; the platform's config is tried again in ${delay / 1000} s`;
    this.options.logger.warn("overlay: nebula could not be run, the new config waits", { reason });
    clearTimeout(this.deferTimer);
    this.deferTimer = setTimeout(() => void this.serial(() => this.retryDeferred()), delay);
    return "deferred";
  }

  private async retryDeferred(): Promise<void> {
    const yaml = this.deferredText;
    if (!this.stopped && yaml !== null) await this.switchTo(yaml);
  }

  /** Forgets the waiting config: tried now, or no longer the platform's latest. */
  private dropDeferred(): void {
    clearTimeout(this.deferTimer);
    this.deferredText = null;
    this.deferred = null;
  }

  /** Makes `yaml` the running config: checked, written, then reload or restart, then on trial. */
  private async switchTo(yaml: string): Promise<ApplyResult> {
    if (yaml !== this.deferredText) this.deferrals = 0;
    this.dropDeferred();
    try {
      parseConfig(yaml);
    } catch (err) {
      return this.refuse(yaml, (err as Error).message);
    }
    writeFileAtomic(this.files.candidate, yaml);
    let problem: string | null;
    try {
      problem = await testConfig(this.options.nebula, this.files.candidate);
    } catch (err) {
      unlinkSync(this.files.candidate);
      if (err instanceof NebulaNotRun) return this.defer(yaml, err.message);
      throw err;
    }
    this.deferrals = 0;
    if (problem !== null) {
      unlinkSync(this.files.candidate);
      return this.refuse(yaml, `nebula -test refused it: ${problem}`);
    }
    const mode = this.running !== null && this.proc?.running() ? applyMode(this.running, yaml) : "restart";
    writeFileAtomic(this.files.config, yaml);
    unlinkSync(this.files.candidate);
    this.running = yaml;
    this.rejectedText = null;
    this.rejected = null;
    if (mode === "none") {
      // Same settings in other words: whatever held for the old text holds for this one.
      if (this.pending === null) this.keepAsLastGood(yaml);
      return "unchanged";
    }
    if (mode === "reload") this.reload();
    else await this.restart();
    this.options.logger.info("overlay: config applied", { mode });
    this.beginTrial(yaml);
    return mode === "reload" ? "reloaded" : "restarted";
  }

  private keepAsLastGood(yaml: string): void {
    this.lastGood = yaml;
    writeFileAtomic(this.files.lastGood, yaml);
  }

  private beginTrial(yaml: string): void {
    clearTimeout(this.trialTimer);
    const lighthouses = lighthouseAddrs(yaml);
    this.pending = {
      text: yaml,
      lighthouses,
      startedAt: this.now(),
      hasLighthouses: lighthouses.length > 0,
      hasFallback: this.lastGood !== null && this.lastGood !== yaml,
      unproven: false,
    };
    this.judge();
    if (this.pending) {
      // A little past the timeout, so the verdict is never "wait" for a timer that fired on the dot.
      this.trialTimer = setTimeout(() => void this.serial(() => this.judge()), this.options.handshakeTimeoutMs + 50);
      this.trialTimer.unref();
    }
  }

  /** Confirms, keeps waiting, or rolls back the config on trial. */
  private async judge(): Promise<void> {
    const trial = this.pending;
    if (!trial || this.stopped) return;
    const verdict = judgeTrial(trial, this.now(), this.options.handshakeTimeoutMs, this.tunnels.anyUp(trial.lighthouses));
    if (verdict === "confirm") {
      this.pending = null;
      clearTimeout(this.trialTimer);
      this.keepAsLastGood(trial.text);
      // A lighthouse, or a host of a network without one, has no handshake to wait for.
      this.options.logger.info(trial.hasLighthouses ? "overlay: config confirmed by a lighthouse handshake" : "overlay: config kept: it names no lighthouse to wait for");
    } else if (verdict === "unproven" && !trial.unproven) {
      trial.unproven = true;
      this.options.logger.warn("overlay: no lighthouse handshake within the handshake timeout, and no earlier config to return to: keeping this one");
    } else if (verdict === "rollback" && this.lastGood !== null) {
      await this.rollBack(trial.text, this.lastGood);
    }
  }

  private async rollBack(bad: string, good: string): Promise<void> {
    this.pending = null;
    const seconds = this.options.handshakeTimeoutMs / 1000;
    this.rejectedText = bad;
    this.rejected = `the platform's latest overlay config brought no lighthouse handshake within ${seconds} s: rolled back to the last good one`;
    this.options.logger.warn("overlay: rolling back to the last good config", { reason: this.rejected });
    const mode = this.proc?.running() ? applyMode(bad, good) : "restart";
    writeFileAtomic(this.files.config, good);
    this.running = good;
    if (mode === "reload") this.reload();
    else if (mode === "restart") await this.restart();
  }

  /** SIGHUP: nebula re-reads its config file. */
  private reload(): void {
    this.proc?.signal("SIGHUP");
  }

  private async restart(): Promise<void> {
    clearTimeout(this.restartTimer);
    const old = this.proc;
    // Cleared first: the old process's exit is intended, not a crash to restart from.
    this.proc = null;
    await old?.stop(NEBULA_STOP_GRACE_MS);
    await this.spawn();
  }

  private async spawn(): Promise<void> {
    this.tunnels.clear();
    this.exit = null;
    this.procStartedAt = this.now();
    let proc: ManagedChild | undefined;
    try {
      proc = await startNebula(this.options.nebula, this.files.config, (line) => this.onLine(proc, line));
    } catch (err) {
      // Like a nebula that exited at once: tried again after the back-off.
      const error = (err as Error).message;
      this.restartLater(`nebula could not start (${error})`, "overlay: nebula could not start", { error });
      return;
    }
    const started = proc;
    this.proc = started;
    void started.exited.then((exit) => this.onExit(started, exit));
  }

  private onLine(proc: ManagedChild | undefined, line: string): void {
    if (proc !== this.proc) return;
    this.options.logger.debug("nebula", { line });
    if (this.tunnels.observe(line) && this.pending) void this.serial(() => this.judge());
  }

  private onExit(proc: ManagedChild, exit: { code: number | null; signal: NodeJS.Signals | null }): void {
    if (proc !== this.proc) return;
    this.proc = null;
    this.restartLater(`nebula exited (${exit.signal ?? `code ${exit.code}`})`, "overlay: nebula exited", { code: exit.code, signal: exit.signal });
  }

  /** Runs nebula again after the back-off; `what` is what the overlay check reports meanwhile. */
  private restartLater(what: string, msg: string, fields: LogFields): void {
    if (this.stopped) return;
    this.tunnels.clear();
    this.failures = nextFailures(this.failures, this.now() - this.procStartedAt);
    const delay = restartDelay(this.failures);
    this.exit = `${what}; restarting in ${delay / 1000} s`;
    this.options.logger.warn(msg, { ...fields, restart_in_ms: delay });
    clearTimeout(this.restartTimer);
    this.restartTimer = setTimeout(() => void this.serial(() => this.respawn()), delay);
    this.restartTimer.unref();
  }

  private async respawn(): Promise<void> {
    if (!this.stopped && this.proc === null && this.running !== null) await this.spawn();
  }
}
