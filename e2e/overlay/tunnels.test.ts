// Real Nebula tunnels between hosts the platform issued (docs/overlay.md "Hosts and configs", "Deactivation",
// "CA rotation"): three network namespaces (lighthouse, a, b) on a bridge, each running the pinned bin/nebula
// with the config_yaml the API returned. Needs root, /dev/net/tun and `ping` (iputils-ping): it FAILS, never
// skips, when they are missing. Traffic stays inside the namespaces (192.0.2.0/24 underlay, 10.42.7.0/24
// overlay addresses of the world's org A network 10.42.0.0/16).
import type { RecordModel } from "pocketbase";
import { describe, expect, it } from "vitest";
import { reaches, runIn } from "../harness/netns";
import { issueStarHosts, LH_UNDERLAY, useOverlayStar, type StarRole } from "../harness/overlay-star";
import { useWorld } from "../harness/world";

const OVERLAY = { lh: "10.42.7.1", a: "10.42.7.2", b: "10.42.7.3" };

describe("overlay tunnels", () => {
  const { world: w } = useWorld();

  const star = useOverlayStar("ovt", "overlay-tunnels");
  const { requireNet } = star;
  const hosts = {} as Record<StarRole, RecordModel>;

  const logs = () => star.plainLogs(3000).join("\n");

  /**
   * Runs (or re-runs: redeploy = restart) the host's nebula in its namespace with the config_yaml as the API
   * returned it. Nothing needs adapting: each namespace has its own interfaces and ports, so the default tun
   * dev (nebula1) and listen port (4242, which the lighthouse's public_endpoint names) are used as issued,
   * and the PKI is never touched.
   */
  async function deploy(role: StarRole, configYaml: string): Promise<void> {
    const p = await star.runPlain(role, configYaml);
    // Up when its tun device exists (bounded).
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (p.child.exitCode !== null) break;
      if (runIn(star.ns[role], "ip", ["link", "show", "nebula1"], 5_000).code === 0) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`nebula ${role} did not come up within 10 s (exit ${p.child.exitCode}):\n${p.log()}`);
  }

  const configOf = async (role: StarRole): Promise<string> => (await (await w.client("owner")).collection("overlay_hosts").getOne(hosts[role].id)).config_yaml;

  it("host-a and host-b reach each other through the lighthouse", async () => {
    requireNet();
    const t0 = Date.now();
    Object.assign(hosts, await issueStarHosts(w, "tun", OVERLAY));
    expect(hosts.a.config_yaml).toContain(`${LH_UNDERLAY}:4242`);
    expect(hosts.b.config_yaml).toContain(`${LH_UNDERLAY}:4242`);

    await deploy("lh", hosts.lh.config_yaml);
    await deploy("a", hosts.a.config_yaml);
    await deploy("b", hosts.b.config_yaml);

    expect(await reaches(star.ns.a, OVERLAY.b, 10_000), `a → b over the overlay\n${logs()}`).toBe(true);
    expect(await reaches(star.ns.b, OVERLAY.a, 10_000), `b → a over the overlay\n${logs()}`).toBe(true);
    expect(await reaches(star.ns.a, OVERLAY.lh, 10_000), `a → lighthouse\n${logs()}`).toBe(true);
    console.info(`tunnels up and a ↔ b answered in ${Date.now() - t0} ms`);
  });

  it("a deactivated host is cut off once its peer is redeployed with the new blocklist", async () => {
    requireNet();
    expect(hosts.b, "the first test created the hosts").toBeDefined();
    const t0 = Date.now();
    const owner = await w.client("owner");
    await owner.collection("overlay_hosts").update(hosts.b.id, { active: false });
    const configA = await configOf("a");
    expect(configA).toContain(hosts.b.fingerprint);

    // Redeploy = restart here; a SIGHUP applies a blocklist to live tunnels too (e2e/agent/overlay.test.ts).
    await deploy("a", configA);
    // a itself is up and on the overlay: it still reaches the lighthouse...
    expect(await reaches(star.ns.a, OVERLAY.lh, 10_000), `a → lighthouse after redeploy\n${logs()}`).toBe(true);
    // ...but no echo crosses between a and b any more, either way (b still runs its old config).
    expect(await reaches(star.ns.a, OVERLAY.b, 6_000), `a → b must fail: b is blocklisted\n${logs()}`).toBe(false);
    expect(await reaches(star.ns.b, OVERLAY.a, 6_000), `b → a must fail: b is blocklisted\n${logs()}`).toBe(false);
    console.info(`blocklist check took ${Date.now() - t0} ms`);
  });

  it("during a CA rotation a host on the new CA and the lighthouse on the old one still talk", async () => {
    requireNet();
    expect(hosts.a, "the first test created the hosts").toBeDefined();
    const t0 = Date.now();
    const owner = await w.client("owner");
    const rotate = (step: string) => owner.send("/api/org/overlay-ca/rotate", { method: "POST", body: { step } });
    const oldFingerprint = (await owner.collection("overlay_ca").getOne(w.a.overlay_ca.id)).fingerprint;

    // prepare: every config trusts both CAs; deploy that to the lighthouse and a (certificates unchanged).
    await rotate("prepare");
    await deploy("lh", await configOf("lh"));
    await deploy("a", await configOf("a"));
    expect(await reaches(star.ns.a, OVERLAY.lh, 10_000), `a → lighthouse after prepare\n${logs()}`).toBe(true);

    // commit: every active host is re-signed by the incoming CA; redeploy only a.
    await rotate("commit");
    const ca = await owner.collection("overlay_ca").getOne(w.a.overlay_ca.id);
    expect(ca.fingerprint).not.toBe(oldFingerprint);
    const a = await owner.collection("overlay_hosts").getOne(hosts.a.id);
    expect(a.fingerprint).not.toBe(hosts.a.fingerprint);
    await deploy("a", a.config_yaml);
    // a holds a certificate of the new CA, the lighthouse still runs its certificate of the old one.
    const lhNow = await owner.collection("overlay_hosts").getOne(hosts.lh.id);
    expect(lhNow.fingerprint).not.toBe(hosts.lh.fingerprint);
    expect(await reaches(star.ns.a, OVERLAY.lh, 10_000), `a (new CA) → lighthouse (old CA)\n${logs()}`).toBe(true);
    expect(await reaches(star.ns.lh, OVERLAY.a, 10_000), `lighthouse (old CA) → a (new CA)\n${logs()}`).toBe(true);
    console.info(`rotation check took ${Date.now() - t0} ms`);
  });
});
