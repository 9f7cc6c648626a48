// The agent's platform sync (issue 10 item 3) driven directly against the real control plane:
// revoke-and-replace and rotation adopted, a suspended bus user and a deactivated Thing reported with
// back-off and no throw. The clock is real; the interval is long so that only requested syncs run.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { platformSyncCheck } from "../../agent/src/platform/check";
import { createPlatformClient } from "../../agent/src/platform/client";
import { enroll } from "../../agent/src/platform/enroll";
import { readSession } from "../../agent/src/platform/session";
import { startPlatformSync, type PlatformSync } from "../../agent/src/platform/sync";
import { createLogger } from "../../agent/src/lib/log";
import { statePaths } from "../../agent/src/state-paths";
import { createThing } from "../harness/agent";
import { useWorld } from "../harness/world";

const { platform, world: w } = useWorld();
let scratch = "";
const syncs: PlatformSync[] = [];
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "agent-sync-"));
});
afterAll(() => {
  for (const s of syncs) s.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const INTERVAL = 600_000;

async function enrolledAgent(name: string) {
  const made = await createThing(w, {
    name,
    bus: { mode: "auto" },
    overlay: { mode: "auto", network_id: w.a.overlay_networks.id, overlay_ip: `10.42.91.${syncs.length + 1}` },
  });
  const stateDir = join(scratch, name);
  const client = createPlatformClient(platform.url, { timeoutMs: 5_000 });
  await enroll(client, made.email, made.password, stateDir);
  const paths = statePaths(stateDir);
  const session = readSession(paths.session);
  if (!session) throw new Error("no session after enroll");
  const logs: string[] = [];
  const sync = startPlatformSync({ session, paths, client, intervalMs: INTERVAL, logger: createLogger((l) => logs.push(l), "debug") });
  syncs.push(sync);
  const creds: string[] = [];
  const configs: string[] = [];
  sync.onBusCreds((c) => creds.push(c));
  sync.onOverlayConfig((c) => configs.push(c));
  sync.start();
  await sync.requestSync("test start");
  const thing = await w.su.collection("things").getOne(made.id);
  return { made, thing, paths, sync, creds, configs, logs, check: platformSyncCheck({ status: () => sync.status(), intervalMs: INTERVAL }) };
}

describe("agent platform sync", () => {
  it("starts from the enrolled files without downloading again, then adopts a revoke-and-replace and a rotation", async () => {
    const a = await enrolledAgent("sync-adopt");
    // Nothing downloaded; the overlay is told once that the config it holds is still the platform's.
    expect(a.creds).toEqual([]);
    expect(a.configs).toEqual([readFileSync(join(a.paths.overlayDir, "config.yml"), "utf8")]);
    expect(a.sync.status()).toMatchObject({ consecutiveFailures: 0, busUserActive: true, thingActive: true, overlayHostActive: true });
    expect((await a.check.run()).state).toBe("ok");

    // Revoke and replace: a new key; the bus (an authorization error) asks for a sync.
    await w.su.collection("bus_users").update(a.thing.bus_user, { revoke: true });
    const replaced = await w.su.collection("bus_users").getOne(a.thing.bus_user);
    await a.sync.requestSync("bus authorization error");
    expect(a.creds).toEqual([replaced.creds_file]);
    expect(readFileSync(a.paths.busCreds, "utf8")).toBe(replaced.creds_file);

    // cmd.rotate_creds.
    const rotated = await a.sync.rotateBusCreds();
    expect(rotated).toEqual({ rotated: true, bus_user: a.thing.bus_user });
    const reminted = await w.su.collection("bus_users").getOne(a.thing.bus_user);
    expect(reminted.creds_file).not.toBe(replaced.creds_file);
    expect(a.creds).toEqual([replaced.creds_file, reminted.creds_file]);
    expect(readFileSync(a.paths.busCreds, "utf8")).toBe(reminted.creds_file);
    for (const line of a.logs) {
      expect(line).not.toContain(reminted.creds_file.slice(0, 60));
    }
  });

  it("reports a suspended bus user (warn, and rotate refused with 403)", async () => {
    const a = await enrolledAgent("sync-suspended");
    await w.su.collection("bus_users").update(a.thing.bus_user, { active: false });
    await new Promise((r) => setTimeout(r, 5_100));
    await a.sync.requestSync("bus authorization error");
    expect(a.sync.status().busUserActive).toBe(false);
    expect(await a.check.run()).toMatchObject({ state: "warn", detail: "the bus identity is suspended at the platform" });
    await expect(a.sync.rotateBusCreds()).rejects.toMatchObject({ status: 403 });
  });

  it("reports a deactivated Thing (401 after its token key is refreshed), backs off and never throws", async () => {
    const a = await enrolledAgent("sync-retired");
    await w.su.collection("things").update(a.made.id, { active: false });
    await new Promise((r) => setTimeout(r, 5_100));
    await expect(a.sync.requestSync("interval")).resolves.toBeUndefined();
    expect(a.sync.status()).toMatchObject({ consecutiveFailures: 1, lastFailure: { kind: "unauthorized", status: 401 } });
    const outcome = await a.check.run();
    expect(outcome.state).toBe("warn");
    expect(outcome.fix).toContain(`agent enroll --platform ${platform.url} --email ${a.made.email}`);
    // The next request waits for the back-off (2 intervals) rather than running at once.
    let settled = false;
    void a.sync.requestSync("bus authorization error").then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 500));
    expect(settled).toBe(false);
    expect(a.logs.some((l) => l.includes('"kind":"unauthorized"'))).toBe(true);
  });
});
