// The overlay deactivation cascade (spec 3.2 things.active item 4) and GET /api/org/overlay/cert-audit
// (spec 4.2), judged by js-yaml, bin/nebula -test and bin/nebula-cert; docs/overlay.md "Deactivation", "cert-audit".
import { readFileSync } from "node:fs";
import yaml from "js-yaml";
import type PocketBase from "pocketbase";
import { describe, expect, it } from "vitest";
import { NEBULA, NEBULA_CERT, useNebulaWorkspace } from "../harness/nebula";
import { sqlite } from "../harness/sqlite";
import { statusOf, useWorld } from "../harness/world";

const { run, file, path } = useNebulaWorkspace("overlay-audit-");

const blocklistOf = (configYaml: string): string[] => (yaml.load(configYaml) as { pki: { blocklist: string[] } }).pki.blocklist;

describe("overlay deactivation and cert-audit", () => {
  const { platform, world: w } = useWorld();

  async function audit(pb: PocketBase): Promise<string[]> {
    const body = (await pb.send("/api/org/overlay/cert-audit", { method: "GET" })) as { stale: string[] };
    expect(Array.isArray(body.stale)).toBe(true);
    return body.stale;
  }

  async function host(id: string) {
    return w.su.collection("overlay_hosts").getOne(id);
  }

  it("answers [] when nothing is stale, 403 for a viewer", async () => {
    expect(await audit(await w.client("owner"))).toEqual([]);
    expect(await audit(await w.client("admin"))).toEqual([]);
    expect(await statusOf((await w.client("viewer")).send("/api/org/overlay/cert-audit", { method: "GET" }))).toBe(403);
    expect(await statusOf((await w.client("member")).send("/api/org/overlay/cert-audit", { method: "GET" }))).toBe(403);
  });

  it("a deactivated Thing's host is blocked in every other host's config; reactivation re-signs", async () => {
    const owner = await w.client("owner");
    const created = (await owner.send("/api/org/things", {
      method: "POST",
      body: { name: "overlay-device", overlay: { mode: "auto", network_id: w.a.overlay_networks.id, overlay_ip: "10.42.0.20" } },
    })) as { id: string };
    const thing = await w.su.collection("things").getOne(created.id);
    const before = await host(thing.overlay_host);
    const first = before.fingerprint as string;
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(blocklistOf((await host(w.a.overlay_hosts.id)).config_yaml)).not.toContain(first);

    await owner.collection("things").update(thing.id, { active: false });
    const off = await host(thing.overlay_host);
    expect(off.active).toBe(false);
    expect(off.fingerprint).toBe(first);
    const peer = await host(w.a.overlay_hosts.id);
    expect(blocklistOf(peer.config_yaml)).toContain(first);
    const tested = run(NEBULA, ["-test", "-config", file("peer.yml", peer.config_yaml)]);
    expect(tested.code, tested.out).toBe(0);

    await owner.collection("things").update(thing.id, { active: true });
    const on = await host(thing.overlay_host);
    expect(on.active).toBe(true);
    expect(on.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(on.fingerprint).not.toBe(first);
    const ca = await w.su.collection("overlay_ca").getOne(w.a.overlay_ca.id);
    const verified = run(NEBULA_CERT, ["verify", "-ca", file("ca.crt", ca.cert), "-crt", file("host.crt", on.cert)]);
    expect(verified.code, verified.out).toBe(0);
    const again = await host(w.a.overlay_hosts.id);
    expect(blocklistOf(again.config_yaml)).toContain(first);
    expect(blocklistOf(again.config_yaml)).not.toContain(on.fingerprint);
    expect(blocklistOf(on.config_yaml)).toContain(first);
    for (const config of [again.config_yaml, on.config_yaml]) {
      const ok = run(NEBULA, ["-test", "-config", file("config.yml", config)]);
      expect(ok.code, ok.out).toBe(0);
    }
    // Entries are [fingerprint, notAfter] (docs/overlay.md "Pruning").
    expect((ca.revoked_fingerprints as unknown[]).map((entry) => (Array.isArray(entry) ? entry[0] : entry))).toContain(first);
  });

  it("a host deactivated directly is blocked too, without re-signing", async () => {
    const owner = await w.client("owner");
    const h = await owner.collection("overlay_hosts").create({
      organization: w.a.organization.id, network: w.a.overlay_networks.id, name: "direct", overlay_ip: "10.42.0.21", active: true,
    });
    await owner.collection("overlay_hosts").update(h.id, { active: false });
    const off = await host(h.id);
    expect(off.fingerprint).toBe(h.fingerprint);
    expect(off.cert).toBe(h.cert);
    expect(blocklistOf((await host(w.a.overlay_hosts.id)).config_yaml)).toContain(h.fingerprint);
  });

  it("lists a host a SuperUser gave a /32 certificate; excludes inactive hosts, omits an unreadable cert", async () => {
    const owner = await w.client("owner");
    const make = (name: string, ip: string) =>
      owner.collection("overlay_hosts").create({ organization: w.a.organization.id, network: w.a.overlay_networks.id, name, overlay_ip: ip, active: true });
    const narrow = await make("narrow", "10.42.0.7");
    const narrowOff = await make("narrow-off", "10.42.0.8");
    const garbled = await make("garbled", "10.42.0.9");

    const ca = w.a.overlay_ca;
    const caCrt = file("ca.crt", ca.cert);
    const caKey = file("ca.key", ca.private_key);
    for (const [id, ip] of [[narrow.id, "10.42.0.7"], [narrowOff.id, "10.42.0.8"]]) {
      const crt = path("narrow.crt");
      const signed = run(NEBULA_CERT, ["sign", "-ca-crt", caCrt, "-ca-key", caKey, "-name", "narrow", "-networks", `${ip}/32`, "-out-crt", crt, "-out-key", path("narrow.key")]);
      expect(signed.code, signed.out).toBe(0);
      await w.su.collection("overlay_hosts").update(id, { cert: readFileSync(crt, "utf8") });
    }
    await w.su.collection("overlay_hosts").update(garbled.id, { cert: "-----BEGIN NEBULA CERTIFICATE-----\nnot a certificate\n-----END NEBULA CERTIFICATE-----\n" });
    await owner.collection("overlay_hosts").update(narrowOff.id, { active: false });

    expect((await host(narrow.id)).cert).toMatch(/^-----BEGIN NEBULA CERTIFICATE-----/);
    const stale = await audit(owner);
    expect(stale).toEqual([narrow.id]);
  });

  it("lists the hosts of a network whose cidr changed, without re-signing them", async () => {
    const owner = await w.client("owner");
    const network = await owner.collection("overlay_networks").create({ organization: w.a.organization.id, name: "moved", cidr: "10.43.0.0/16" });
    const h = await owner.collection("overlay_hosts").create({
      organization: w.a.organization.id, network: network.id, name: "moved-1", overlay_ip: "10.43.0.5", active: true,
    });
    expect(await audit(owner)).not.toContain(h.id);
    await owner.collection("overlay_networks").update(network.id, { cidr: "10.43.0.0/24" });
    expect(await audit(owner)).toContain(h.id);
    expect((await host(h.id)).fingerprint).toBe(h.fingerprint);

    // A SuperUser's change of another network is seen the same way; an unreadable cidr omits its hosts.
    const other = await owner.collection("overlay_networks").create({ organization: w.a.organization.id, name: "su", cidr: "10.44.0.0/16" });
    const h2 = await owner.collection("overlay_hosts").create({
      organization: w.a.organization.id, network: other.id, name: "su-1", overlay_ip: "10.44.0.5", active: true,
    });
    await w.su.collection("overlay_networks").update(other.id, { cidr: "10.44.0.0/20" });
    expect(await audit(await w.client("admin"))).toContain(h2.id);
    // Every writer's cidr is checked now (e2e/platform/server-fields.test.ts); a row from before that is written under the API.
    sqlite(platform.dataDir, `UPDATE overlay_networks SET cidr = 'garbage' WHERE id = '${other.id}';`);
    expect(await audit(owner)).not.toContain(h2.id);
  });
});
