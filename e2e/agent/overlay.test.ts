// The agent's overlay manager (agent/src/overlay/, docs/overlay.md "The agent's nebula") against the real
// control plane and the pinned nebula in network namespaces: the platform issues a lighthouse and two hosts;
// the lighthouse and host b run plain nebula, host a runs under the manager (imported directly, nebula
// started through `ip netns exec`). Needs root, /dev/net/tun and `ping`: it FAILS, never skips, without them.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { RecordModel } from "pocketbase";
import { afterAll, describe, expect, it } from "vitest";
import { overlayOutcome } from "../../agent/src/overlay/check";
import { overlayFiles } from "../../agent/src/overlay/config-files";
import { createOverlayManager, type OverlayManager, type OverlayStatus } from "../../agent/src/overlay/manager";
import { readIfPresent } from "../../agent/src/lib/files";
import { createLogger } from "../../agent/src/lib/log";
import { pingOnce, reaches, runIn } from "../harness/netns";
import { NEBULA } from "../harness/nebula";
import { issueStarHosts, LH_UNDERLAY, useOverlayStar, type StarRole } from "../harness/overlay-star";
import { useWorld } from "../harness/world";

const OVERLAY = { lh: "10.42.8.1", a: "10.42.8.2", b: "10.42.8.3" };
// Short, so the rollback test does not wait the production 30 s.
const HANDSHAKE_TIMEOUT_MS = 6_000;

async function until(what: string, withinMs: number, done: () => boolean, detail: () => string): Promise<number> {
  const t0 = Date.now();
  while (!done()) {
    if (Date.now() - t0 > withinMs) throw new Error(`${what} did not happen within ${withinMs} ms\n${detail()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return Date.now() - t0;
}

describe("agent overlay manager", () => {
  const { world: w } = useWorld();

  const star = useOverlayStar("ago", "agent-overlay");
  const { requireNet } = star;
  const hosts = {} as Record<StarRole, RecordModel>;
  let manager: OverlayManager | undefined;
  const agentLog: string[] = [];

  afterAll(async () => manager?.stop());

  const files = () => overlayFiles(join(star.dir, "state", "overlay"));
  const status = (): OverlayStatus => {
    if (!manager) throw new Error("the first test starts the manager");
    return manager.status();
  };
  const logs = () => [`--- agent (host a) ---\n${agentLog.slice(-60).join("")}`, ...star.plainLogs(2000)].join("\n");

  const configOf = async (role: StarRole): Promise<string> => (await (await w.client("owner")).collection("overlay_hosts").getOne(hosts[role].id)).config_yaml;

  it("runs nebula from the host's config_yaml: tunnel up, the config kept as the last good one, check ok", async () => {
    requireNet();
    Object.assign(hosts, await issueStarHosts(w, "ago", OVERLAY));
    await star.runPlain("lh", hosts.lh.config_yaml);
    await star.runPlain("b", hosts.b.config_yaml);

    manager = createOverlayManager({
      nebula: { binary: NEBULA, launcher: ["ip", "netns", "exec", star.ns.a] },
      overlayDir: files().config.replace(/\/config\.yml$/, ""),
      handshakeTimeoutMs: HANDSHAKE_TIMEOUT_MS,
      logger: createLogger((line) => agentLog.push(line), "debug"),
    });
    await manager.start();
    expect(status().configured, "nothing on disk yet: nothing to run").toBe(false);
    expect(overlayOutcome(true, status(), "c").state).toBe("skipped");

    const t0 = Date.now();
    expect(await manager.apply(hosts.a.config_yaml)).toBe("restarted");
    await until("the lighthouse handshake", 15_000, () => status().tunnels > 0 && !status().unproven && readIfPresent(files().lastGood) !== undefined, logs);
    expect(await reaches(star.ns.a, OVERLAY.b, 10_000), `a → b over the overlay\n${logs()}`).toBe(true);
    console.info(`manager: config applied → a reaches b in ${Date.now() - t0} ms`);

    for (const path of [files().config, files().lastGood]) {
      expect(readFileSync(path, "utf8")).toBe(hosts.a.config_yaml);
      expect(statSync(path).mode & 0o777).toBe(0o600);
    }
    expect(overlayOutcome(true, status(), "c").state).toBe("ok");
    // The same text again (the next refresh) changes nothing.
    expect(await manager.apply(hosts.a.config_yaml)).toBe("unchanged");
    // No secret in the agent's own log lines (nebula's lines carry public certificate details only).
    expect(agentLog.join("")).not.toContain("PRIVATE KEY");
  });

  it("rolls a config that brings no lighthouse handshake back within handshake_timeout, and the check says so", async () => {
    requireNet();
    const good = hosts.a.config_yaml;
    const bad = good.replaceAll(`${LH_UNDERLAY}:4242`, "192.0.2.99:4242");
    expect(bad).not.toBe(good);

    expect(await manager?.apply(bad)).toBe("restarted");
    expect(readFileSync(files().config, "utf8")).toBe(bad);
    const took = await until("the rollback", HANDSHAKE_TIMEOUT_MS + 10_000, () => status().rejected !== null, logs);
    console.info(`bad config rolled back ${took} ms after it was applied (handshake_timeout ${HANDSHAKE_TIMEOUT_MS} ms)`);
    expect(took).toBeGreaterThanOrEqual(HANDSHAKE_TIMEOUT_MS - 500);

    expect(readFileSync(files().config, "utf8")).toBe(good);
    expect(readFileSync(files().lastGood, "utf8")).toBe(good);
    const outcome = overlayOutcome(true, status(), files().config);
    expect(outcome.state).toBe("warn");
    expect(outcome.detail).toMatch(/no lighthouse handshake within 6 s: rolled back/);
    expect(await reaches(star.ns.a, OVERLAY.b, 15_000), `a → b after the rollback\n${logs()}`).toBe(true);
    // The refused text is not tried again at the next refresh.
    expect(await manager?.apply(bad)).toBe("unchanged");
    expect(readFileSync(files().config, "utf8")).toBe(good);
  });

  it("a peer deactivated at the control plane loses its tunnel once the refreshed config is applied (reload, no restart)", async () => {
    requireNet();
    expect(await reaches(star.ns.a, OVERLAY.b, 10_000), `a → b before the deactivation\n${logs()}`).toBe(true);
    const owner = await w.client("owner");
    await owner.collection("overlay_hosts").update(hosts.b.id, { active: false });
    const refreshed = await configOf("a");
    expect(refreshed).toContain(hosts.b.fingerprint);

    const t0 = Date.now();
    // What the 60 s platform refresh does when the host's config changed.
    expect(await manager?.apply(refreshed)).toBe("reloaded");
    const cut = await until("the blocked peer's tunnel teardown", 60_000, () => !pingOnce(star.ns.a, OVERLAY.b), logs);
    console.info(`blocklisted peer unreachable ${cut} ms after the refreshed config was applied`);
    // It stays cut, both ways, while a still reaches the lighthouse.
    expect(await reaches(star.ns.a, OVERLAY.b, 5_000), `a → b must fail: b is blocklisted\n${logs()}`).toBe(false);
    expect(await reaches(star.ns.b, OVERLAY.a, 5_000), `b → a must fail: b is blocklisted\n${logs()}`).toBe(false);
    expect(await reaches(star.ns.a, OVERLAY.lh, 10_000), `a → lighthouse\n${logs()}`).toBe(true);
    expect(Date.now() - t0).toBeLessThan(60_000 + 20_000);
    await until("the confirmation", HANDSHAKE_TIMEOUT_MS + 5_000, () => readIfPresent(files().lastGood) === refreshed, logs);
    expect(status().rejected).toBeNull();
    expect(overlayOutcome(true, status(), "c").state).toBe("ok");
    expect(runIn(star.ns.a, "ip", ["link", "show", "nebula1"]).code).toBe(0);
  });
});
