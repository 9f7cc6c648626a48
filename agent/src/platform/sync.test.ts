import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLogger } from "../lib/log";
import { statePaths, type StatePaths } from "../state-paths";
import { PlatformError, type KeyMaterial, type OwnIdentity, type PlatformClient } from "./client";
import { revisionOf } from "./material";
import type { Session } from "./session";
import { MAX_BACKOFF_MS, REFRESH_AFTER_MS, startPlatformSync, type Clock, type PlatformSync } from "./sync";
import { refreshAgeOf } from "./spread";

const DAY = 86_400_000;

/** A clock whose timers run only when the test advances it. */
function fakeClock(start: number) {
  let now = start;
  const timers = new Map<number, { at: number; fn: () => void }>();
  let next = 1;
  const clock: Clock = {
    now: () => now,
    setTimeout: (fn, ms) => {
      timers.set(next, { at: now + ms, fn });
      return next++;
    },
    clearTimeout: (handle) => void timers.delete(handle as number),
  };
  const settle = () => new Promise<void>((r) => setImmediate(r));
  async function advance(ms: number) {
    const end = now + ms;
    for (;;) {
      await settle();
      const due = [...timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      timers.delete(due[0]);
      now = due[1].at;
      due[1].fn();
    }
    now = end;
    await settle();
  }
  return { clock, advance, pending: () => [...timers.values()].map((t) => t.at - now) };
}

const jwt = (expMs: number) => `h.${Buffer.from(JSON.stringify({ exp: Math.floor(expMs / 1000) })).toString("base64url")}.s`;

/** The control plane as the agent sees it, in memory. */
function fakePlatform(clock: Clock) {
  const p = {
    reachable: true,
    tokenValid: true,
    thingActive: true,
    bus: { id: "bu1", active: true, creds: "creds-1" } as { id: string; active: boolean; creds: string } | null,
    host: { id: "oh1", active: true, config: "config-1" } as { id: string; active: boolean; config: string } | null,
    calls: [] as string[],
    /** Polls answered 304. */
    notModified: 0,
  };
  const gate = (call: string) => {
    p.calls.push(call);
    if (!p.reachable) throw new PlatformError(0, "platform http://pf unreachable: ECONNREFUSED");
    if (!p.tokenValid && call !== "auth") throw new PlatformError(401, "401 The request requires valid record authorization token.");
  };
  const identity = (include: readonly KeyMaterial[]): OwnIdentity => ({
    thing: { id: "t1", code: "TH-1", email: "TH-1@o.thing.local", organization: "o1", active: p.thingActive },
    bus_user: p.bus && { id: p.bus.id, active: p.bus.active, revision: revisionOf(p.bus.creds), ...(include.includes("creds_file") ? { creds_file: p.bus.creds } : {}) },
    overlay_host: p.host && { id: p.host.id, active: p.host.active, revision: revisionOf(p.host.config), ...(include.includes("config_yaml") ? { config_yaml: p.host.config } : {}) },
  });
  const record = { id: "t1", code: "TH-1", email: "TH-1@o.thing.local", organization: "o1", active: true };
  const client: PlatformClient = {
    url: "http://pf",
    authWithPassword: async () => ({ token: jwt(clock.now() + 7 * DAY), record }),
    authRefresh: async () => {
      gate("refresh");
      return { token: jwt(clock.now() + 7 * DAY), record };
    },
    identity: async (_token, include = []) => {
      gate(include.length ? `identity:${include.join(",")}` : "identity");
      return identity(include);
    },
    // The validator: the revisions answer itself, as a control plane's tag changes with its answer.
    pollIdentity: async (_token, etag) => {
      gate("identity");
      const now = identity([]);
      const tag = JSON.stringify(now);
      p.notModified += etag === tag ? 1 : 0;
      return etag === tag ? { changed: false } : { changed: true, identity: now, etag: tag };
    },
    rotateBusCreds: async () => {
      gate("rotate");
      if (!p.bus) throw new PlatformError(404, "no bus identity is linked");
      p.bus.creds = `${p.bus.creds}+rotated`;
      return { rotated: true, bus_user: p.bus.id };
    },
  };
  return { p, client };
}

describe("platform sync", () => {
  let dir = "";
  let paths: StatePaths;
  let syncs: PlatformSync[] = [];
  const logs: string[] = [];
  const logger = createLogger((line) => logs.push(line), "debug");
  const START = 1_800_000_000_000;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "sync-"));
    paths = statePaths(dir);
    logs.length = 0;
  });
  afterEach(() => {
    for (const s of syncs) s.stop();
    syncs = [];
    rmSync(dir, { recursive: true, force: true });
  });

  function setUp(options: { onDisk?: string } = {}) {
    const time = fakeClock(START);
    const platform = fakePlatform(time.clock);
    if (options.onDisk !== undefined) writeFileSync(paths.busCreds, options.onDisk);
    const session: Session = { platform: "http://pf", thing: { id: "t1", email: "TH-1@o.thing.local", code: "TH-1", organization: "o1" }, token: jwt(START + 7 * DAY), token_expires: START + 7 * DAY };
    const sync = startPlatformSync({ session, paths, client: platform.client, intervalMs: 60_000, logger, clock: time.clock, random: () => 0.5 });
    syncs.push(sync);
    const creds: string[] = [];
    const configs: string[] = [];
    sync.onBusCreds((c) => creds.push(c));
    sync.onOverlayConfig((c) => configs.push(c));
    return { ...time, ...platform, sync, creds, configs };
  }

  it("at start refreshes the token, fetches material whose revision differs from the files, writes bus.creds 0600 and notifies", async () => {
    const t = setUp();
    t.sync.start();
    await t.advance(0);
    expect(t.p.calls).toEqual(["refresh", "identity", "identity:creds_file,config_yaml"]);
    expect(readFileSync(paths.busCreds, "utf8")).toBe("creds-1");
    expect(statSync(paths.busCreds).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(paths.session, "utf8")).token).toMatch(/^h\./);
    expect([t.creds, t.configs]).toEqual([["creds-1"], ["config-1"]]);
    expect(t.sync.status()).toMatchObject({ consecutiveFailures: 0, lastSuccessAt: START, busUserActive: true, thingActive: true });
  });

  it("polls revisions only every interval; fetches only the material that moved; refreshes the token once a day", async () => {
    const t = setUp({ onDisk: "creds-1" });
    t.sync.start();
    await t.advance(0);
    expect(t.p.calls).toEqual(["refresh", "identity", "identity:config_yaml"]);
    expect(t.creds).toEqual([]);
    t.p.calls.length = 0;
    await t.advance(60_000);
    expect(t.p.calls).toEqual(["identity"]);
    t.p.host = { id: "oh1", active: true, config: "config-2" };
    await t.advance(60_000);
    expect(t.p.calls).toEqual(["identity", "identity", "identity:config_yaml"]);
    expect(t.configs).toEqual(["config-1", "config-2"]);
    // Unchanged polls were answered 304 (the agent sent the validator of the answer it acted on).
    expect(t.p.notModified).toBe(1);
    t.p.calls.length = 0;
    await t.advance(refreshAgeOf("t1", REFRESH_AFTER_MS));
    expect(t.p.calls.filter((c) => c === "refresh")).toEqual(["refresh"]);
    expect(t.sync.status().tokenExpiresAt).toBeGreaterThan(START + 7 * DAY);
  });

  it("requestSync runs at once, coalesces bursts and spaces them", async () => {
    const t = setUp();
    t.sync.start();
    await t.advance(10_000);
    t.p.bus = { id: "bu2", active: true, creds: "replaced" };
    t.p.calls.length = 0;
    const burst = [t.sync.requestSync("bus authorization error"), t.sync.requestSync("again"), t.sync.requestSync("and again")];
    await t.advance(0);
    await Promise.all(burst);
    expect(t.creds).toEqual(["creds-1", "replaced"]);
    expect(t.p.calls.filter((c) => c === "identity").length).toBe(2);
    t.p.calls.length = 0;
    const soon = t.sync.requestSync("right after");
    await t.advance(1000);
    expect(t.p.calls).toEqual([]);
    await t.advance(5000);
    await soon;
    expect(t.p.calls).toEqual(["identity"]);
  });

  it("rotateBusCreds rotates, then adopts the re-minted creds", async () => {
    const t = setUp();
    t.sync.start();
    await t.advance(0);
    const rotated = t.sync.rotateBusCreds();
    await t.advance(0);
    expect(await rotated).toEqual({ rotated: true, bus_user: "bu1" });
    expect(t.creds).toEqual(["creds-1", "creds-1+rotated"]);
    expect(readFileSync(paths.busCreds, "utf8")).toBe("creds-1+rotated");
  });

  it("an unreachable platform: reported, backs off to at most 5 min, never throws, recovers", async () => {
    const t = setUp();
    t.p.reachable = false;
    t.sync.start();
    await t.advance(0);
    expect(t.sync.status()).toMatchObject({ consecutiveFailures: 1, lastFailure: { kind: "unreachable", status: 0 } });
    const gaps: number[] = [];
    for (let i = 0; i < 6; i++) {
      gaps.push(Math.min(...t.pending()));
      await t.advance(gaps[i]);
    }
    expect(gaps).toEqual([120_000, 240_000, MAX_BACKOFF_MS, MAX_BACKOFF_MS, MAX_BACKOFF_MS, MAX_BACKOFF_MS]);
    // A requested sync while failing waits for the back-off instead of hammering the platform.
    t.p.calls.length = 0;
    void t.sync.requestSync("bus authorization error");
    await t.advance(1000);
    expect(t.p.calls).toEqual([]);
    t.p.reachable = true;
    await t.advance(MAX_BACKOFF_MS);
    expect(t.sync.status()).toMatchObject({ consecutiveFailures: 0, lastFailure: undefined });
    expect(logs.some((l) => l.includes("platform sync recovered"))).toBe(true);
  });

  it("a deactivated Thing (401 on refresh) and a suspended bus user are reported without a throw", async () => {
    const t = setUp();
    t.sync.start();
    await t.advance(0);
    t.p.bus = { id: "bu1", active: false, creds: "creds-1" };
    await t.advance(60_000);
    expect(t.sync.status().busUserActive).toBe(false);
    expect(logs.filter((l) => l.includes("the bus identity is suspended")).length).toBe(1);
    await t.advance(60_000);
    expect(logs.filter((l) => l.includes("the bus identity is suspended")).length).toBe(1);

    t.p.tokenValid = false;
    t.p.calls.length = 0;
    await t.advance(DAY);
    expect(t.sync.status().lastFailure).toMatchObject({ kind: "unauthorized", status: 401 });
    // A day of refusals costs about one attempt per 5 min (288), not a retry loop.
    expect(t.p.calls.length).toBeLessThanOrEqual(DAY / MAX_BACKOFF_MS + 5);
  });

  it("never logs key material or tokens", async () => {
    const t = setUp();
    t.sync.start();
    await t.advance(0);
    await t.sync.rotateBusCreds();
    const text = logs.join("");
    for (const secret of ["creds-1", "config-1", "h."]) expect(text).not.toContain(secret);
  });
});
