// System telemetry of the device: CPU, memory, load and disks, from `os` and `fs.statfs` (no library).
// Each round counts its collections ok/failed; the task_metrics check reads the last round. The bus
// publishes the samples (spec 4.4: `<prefix>.<code>.…`).
import { statfs } from "node:fs/promises";
import { cpus, freemem, loadavg, totalmem, type CpuInfo } from "node:os";
import type { AgentCheck, CheckOutcome } from "../health/check";
import type { Logger } from "../lib/log";

export interface DiskSample {
  path: string;
  total_bytes: number;
  free_bytes: number;
  /** What an unprivileged process may still write (free minus the root reserve). */
  available_bytes: number;
}

export interface SystemSample {
  /** ISO time of the sample. */
  at: string;
  /** Busy share of all cores since the previous sample (since boot for the first), 0..1. */
  cpu?: { usage: number; cores: number };
  memory?: { total_bytes: number; available_bytes: number; used_bytes: number };
  load?: { "1m": number; "5m": number; "15m": number };
  disks: DiskSample[];
  /** Collections of this round that answered and that failed (one per CPU, memory, load, each disk). */
  collections: { ok: number; failed: number };
}

/** Where the numbers come from; tests replace it. */
export interface SystemSource {
  cpus(): Pick<CpuInfo, "times">[];
  totalmem(): number;
  freemem(): number;
  loadavg(): number[];
  statfs(path: string): Promise<{ bsize: number; blocks: number; bfree: number; bavail: number }>;
}

const NODE_SOURCE: SystemSource = { cpus, totalmem, freemem, loadavg, statfs };

export class SystemTelemetry {
  private previousCpu: { busy: number; total: number } | undefined;
  private last: SystemSample | undefined;
  /** Collections failing in the last round: each logged once when it starts failing, once when it recovers. */
  private readonly failing = new Set<string>();

  constructor(
    private readonly diskPaths: readonly string[],
    private readonly logger: Logger,
    private readonly source: SystemSource = NODE_SOURCE,
  ) {}

  /** One round of collections; never throws (a failed collection is counted, and logged when it starts failing). */
  async collect(): Promise<SystemSample> {
    const collections = { ok: 0, failed: 0 };
    const attempt = async <T>(what: string, read: () => T | Promise<T>): Promise<T | undefined> => {
      try {
        const value = await read();
        collections.ok++;
        if (this.failing.delete(what)) this.logger.info("telemetry collection recovered", { collection: what });
        return value;
      } catch (err) {
        collections.failed++;
        if (!this.failing.has(what)) this.logger.warn("telemetry collection failed", { collection: what, error: (err as Error).message });
        this.failing.add(what);
        return undefined;
      }
    };
    const sample: SystemSample = {
      at: new Date().toISOString(),
      cpu: await attempt("cpu", () => this.cpu()),
      memory: await attempt("memory", () => this.memory()),
      load: await attempt("load", () => this.load()),
      disks: [],
      collections,
    };
    for (const path of this.diskPaths) {
      const disk = await attempt(`disk ${path}`, () => this.disk(path));
      if (disk !== undefined) sample.disks.push(disk);
    }
    this.last = sample;
    return sample;
  }

  /** The last sample; undefined before the first round. */
  latest(): SystemSample | undefined {
    return this.last;
  }

  private cpu(): { usage: number; cores: number } {
    const cores = this.source.cpus();
    if (cores.length === 0) throw new Error("no CPU times available");
    let busy = 0;
    let total = 0;
    for (const { times } of cores) {
      const sum = times.user + times.nice + times.sys + times.idle + times.irq;
      total += sum;
      busy += sum - times.idle;
    }
    const previous = this.previousCpu ?? { busy: 0, total: 0 };
    this.previousCpu = { busy, total };
    const elapsed = total - previous.total;
    return { usage: elapsed > 0 ? clamp01((busy - previous.busy) / elapsed) : 0, cores: cores.length };
  }

  private memory(): { total_bytes: number; available_bytes: number; used_bytes: number } {
    const total = this.source.totalmem();
    const available = this.source.freemem();
    if (!(total > 0)) throw new Error("no memory figures available");
    return { total_bytes: total, available_bytes: available, used_bytes: total - available };
  }

  private load(): { "1m": number; "5m": number; "15m": number } {
    const [one, five, fifteen] = this.source.loadavg();
    if (![one, five, fifteen].every(Number.isFinite)) throw new Error("no load average available");
    return { "1m": one, "5m": five, "15m": fifteen };
  }

  private async disk(path: string): Promise<DiskSample> {
    const stats = await this.source.statfs(path);
    return { path, total_bytes: stats.blocks * stats.bsize, free_bytes: stats.bfree * stats.bsize, available_bytes: stats.bavail * stats.bsize };
  }
}

function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value));
}

/** task_metrics (spec 4.4, warn): more than half of the last round's collections failed; skipped when telemetry is off. */
export function taskMetricsCheck(telemetry: SystemTelemetry | undefined): AgentCheck {
  return {
    name: "task_metrics",
    run: async (): Promise<CheckOutcome> => {
      if (telemetry === undefined) return { state: "skipped", detail: "telemetry.enabled is false" };
      const sample = telemetry.latest();
      if (sample === undefined) return { state: "ok", detail: "no sample collected yet" };
      const { ok, failed } = sample.collections;
      if (failed * 2 > ok + failed) {
        return {
          state: "warn",
          detail: `${failed} of ${ok + failed} system metric collections failed in the last round`,
          fix: "The agent log names each failing collection (\"telemetry collection failed\") with its error; correct the permission or mount it names.",
        };
      }
      return { state: "ok", detail: failed === 0 ? undefined : `${failed} of ${ok + failed} collections failed` };
    },
  };
}

export interface TelemetryLoop {
  readonly telemetry: SystemTelemetry;
  /** Called with each sample (the bus publishes it). */
  onSample(listener: (sample: SystemSample) => void): void;
  stop(): void;
}

/** Samples at once, then every intervalMs until stop(). */
export function startSystemTelemetry(options: { intervalMs: number; diskPaths: readonly string[]; logger: Logger; source?: SystemSource }): TelemetryLoop {
  const telemetry = new SystemTelemetry(options.diskPaths, options.logger, options.source);
  const listeners: Array<(sample: SystemSample) => void> = [];
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const round = async () => {
    const sample = await telemetry.collect();
    for (const listener of listeners) {
      try {
        listener(sample);
      } catch (err) {
        options.logger.warn("telemetry listener failed", { error: (err as Error).message });
      }
    }
    if (!stopped) timer = setTimeout(round, options.intervalMs);
  };
  void round();
  return {
    telemetry,
    onSample: (listener) => void listeners.push(listener),
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
