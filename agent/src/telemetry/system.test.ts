import { describe, expect, it } from "vitest";
import { createLogger } from "../lib/log";
import { SystemTelemetry, taskMetricsCheck, type SystemSource } from "./system";

const logger = createLogger(() => undefined);
const recorded: string[] = [];
const recording = createLogger((line) => void recorded.push(line));
const times = (busy: number, idle: number) => ({ times: { user: busy, nice: 0, sys: 0, idle, irq: 0 } });

function fakeSource(overrides: Partial<SystemSource> = {}): SystemSource & { tick(): void } {
  let round = 0;
  return {
    tick: () => void round++,
    // Each round adds 100 ms busy and 300 ms idle per core: 25 % usage between rounds.
    cpus: () => [times(1000 + 100 * round, 3000 + 300 * round), times(1000 + 100 * round, 3000 + 300 * round)],
    totalmem: () => 1000,
    freemem: () => 400,
    loadavg: () => [0.5, 0.25, 0.125],
    statfs: async () => ({ bsize: 4096, blocks: 100, bfree: 50, bavail: 40 }),
    ...overrides,
  };
}

describe("SystemTelemetry", () => {
  it("samples CPU deltas, memory, load and each disk", async () => {
    const source = fakeSource();
    const telemetry = new SystemTelemetry(["/", "/var/lib/iot-agent"], logger, source);
    await telemetry.collect();
    source.tick();
    const sample = await telemetry.collect();
    expect(sample.cpu).toEqual({ usage: 0.25, cores: 2 });
    expect(sample.memory).toEqual({ total_bytes: 1000, available_bytes: 400, used_bytes: 600 });
    expect(sample.load).toEqual({ "1m": 0.5, "5m": 0.25, "15m": 0.125 });
    expect(sample.disks).toEqual([
      { path: "/", total_bytes: 409600, free_bytes: 204800, available_bytes: 163840 },
      { path: "/var/lib/iot-agent", total_bytes: 409600, free_bytes: 204800, available_bytes: 163840 },
    ]);
    expect(sample.collections).toEqual({ ok: 5, failed: 0 });
  });

  it("reads real figures from this machine", async () => {
    const sample = await new SystemTelemetry(["/"], logger).collect();
    expect(sample.collections).toEqual({ ok: 4, failed: 0 });
    expect(sample.disks[0].total_bytes).toBeGreaterThan(0);
  });
});

describe("task_metrics", () => {
  it("is skipped when telemetry is off and ok before the first round", async () => {
    expect(await taskMetricsCheck(undefined).run()).toMatchObject({ state: "skipped" });
    expect(await taskMetricsCheck(new SystemTelemetry(["/"], logger, fakeSource())).run()).toMatchObject({ state: "ok" });
  });

  it("warns when more than half of the last round's collections failed, and only then", async () => {
    const failing = async () => {
      throw new Error("ENOENT");
    };
    // 3 of 5 failed: cpu and memory answer, load and both disks fail.
    const broken = new SystemTelemetry(["/a", "/b"], logger, fakeSource({ statfs: failing, loadavg: () => [NaN, NaN, NaN] }));
    await broken.collect();
    expect(await taskMetricsCheck(broken).run()).toMatchObject({ state: "warn", detail: "3 of 5 system metric collections failed in the last round" });
    // A failing collection is logged when it starts failing, not every round.
    const logged = new SystemTelemetry(["/a"], recording, fakeSource({ statfs: failing }));
    await logged.collect();
    await logged.collect();
    expect(recorded.map((line) => JSON.parse(line))).toMatchObject([{ level: "warn", msg: "telemetry collection failed", collection: "disk /a", error: "ENOENT" }]);
    // 2 of 5 failed (both disks): not more than half.
    const half = new SystemTelemetry(["/a", "/b"], logger, fakeSource({ statfs: failing }));
    await half.collect();
    expect(await taskMetricsCheck(half).run()).toMatchObject({ state: "ok", detail: "2 of 5 collections failed" });
  });
});
