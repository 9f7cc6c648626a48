import { describe, expect, it } from "vitest";
import { overlayCheck, overlayOutcome } from "./check";
import type { OverlayStatus } from "./manager";

const healthy: OverlayStatus = { configured: true, running: true, cached: false, rejected: null, deferred: null, unproven: false, tunnels: 2, exit: null };
const outcome = (s: Partial<OverlayStatus>, enabled = true) => overlayOutcome(enabled, { ...healthy, ...s }, "/state/overlay/config.yml");

describe("overlay check", () => {
  it("is ok with tunnels on the platform's config", () => {
    expect(outcome({})).toEqual({ state: "ok", detail: "2 tunnels" });
    expect(outcome({ tunnels: 1 }).detail).toBe("1 tunnel");
  });

  it("is skipped when the overlay is off or the Thing has no overlay host, saying what would make it apply", () => {
    const off = outcome({ running: false }, false);
    expect(off).toMatchObject({ state: "skipped", detail: "overlay.enabled is false" });
    expect(off.fix).toMatch(/set overlay\.enabled to true/);
    const hostless = outcome({ configured: false, running: false });
    expect(hostless).toMatchObject({ state: "skipped", detail: "the Thing has no overlay host" });
    expect(hostless.fix).toMatch(/gives it an overlay host/);
  });

  it("warns when not running, rolled back or refused, waiting for nebula, cached, unproven, or without tunnels", () => {
    expect(outcome({ running: false, exit: "nebula exited (code 1); restarting in 2 s" })).toMatchObject({ state: "warn", detail: "nebula exited (code 1); restarting in 2 s" });
    expect(outcome({ rejected: "rolled back" })).toMatchObject({ state: "warn", detail: "rolled back" });
    // Running the old config or none, a config waiting for nebula to be installed says how to install it.
    for (const running of [true, false]) {
      const waiting = outcome({ running, deferred: "nebula could not be run (spawn nebula ENOENT); the platform's config is tried again in 2 s" });
      expect(waiting).toMatchObject({ state: "warn", detail: expect.stringMatching(/^nebula could not be run/) });
      expect(waiting.fix).toMatch(/^install nebula, or set overlay\.nebula/);
    }
    expect(outcome({ cached: true }).state).toBe("warn");
    expect(outcome({ unproven: true }).state).toBe("warn");
    expect(outcome({ tunnels: 0 })).toMatchObject({ state: "warn", detail: "nebula runs but holds no tunnel" });
  });

  it("runs as a Check named overlay", async () => {
    const check = overlayCheck({ enabled: true, status: () => healthy, configPath: "c" });
    expect(check.name).toBe("overlay");
    expect((await check.run()).state).toBe("ok");
  });
});
