// Deactivation independent of the organization's size (docs/overlay.md "Deactivation"): the write changes
// the CA's revocation list only, and every read of a host's config, as its owners read it (the Thing it is
// assigned to, an owner or admin; view, list, expand), carries the fingerprint at once.
import yaml from "js-yaml";
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import { NEBULA, useNebulaWorkspace } from "../harness/nebula";
import { useWorld } from "../harness/world";
import { migrateUp } from "../harness/platform";
import { sqlite } from "../harness/sqlite";

const { run, file } = useNebulaWorkspace("overlay-deactivation-");

const blocklistOf = (configYaml: string): string[] => (yaml.load(configYaml) as { pki: { blocklist: string[] } }).pki.blocklist;

describe("overlay deactivation at the size of one row", () => {
  const { platform, world: w } = useWorld();
  /** Active hosts of organization A besides the seeded one (assigned to the world's Thing). */
  const peers: RecordModel[] = [];

  beforeAll(async () => {
    const owner = await w.client("owner");
    for (let i = 0; i < 3; i++) {
      peers.push(
        await owner.collection("overlay_hosts").create({
          organization: w.a.organization.id, network: w.a.overlay_networks.id, name: `peer-${i}`, overlay_ip: `10.42.1.${i + 1}`, active: true,
        }),
      );
    }
  });

  /** `updated` of every host of organization A, by id, as stored. */
  async function stamps(): Promise<Map<string, string>> {
    const hosts = await w.su.collection("overlay_hosts").getFullList({ filter: `organization = "${w.a.organization.id}"` });
    return new Map(hosts.map((h) => [h.id, h.updated as string]));
  }

  /**
   * Every path an owner or admin reads a config through: the seeded Thing's host expanded from the Thing,
   * and every active host by list and by view. Each must block `blocked` (except on the host that holds it);
   * the first must pass `nebula -test`.
   */
  async function expectBlockedEverywhere(blocked: string, holder: string): Promise<void> {
    const configs: { host: string; config: string }[] = [];
    for (const role of ["owner", "admin"] as const) {
      const pb: PocketBase = await w.client(role);
      const expanded = await pb.collection("things").getOne(w.a.things.id, { expand: "overlay_host" });
      configs.push({ host: w.a.overlay_hosts.id, config: (expanded.expand?.overlay_host as RecordModel).config_yaml });
      const listed = await pb.collection("overlay_hosts").getFullList({ filter: "active = true" });
      expect(listed.length).toBeGreaterThanOrEqual(2);
      for (const h of listed) {
        configs.push({ host: h.id, config: h.config_yaml });
        configs.push({ host: h.id, config: (await pb.collection("overlay_hosts").getOne(h.id)).config_yaml });
      }
    }
    for (const { host, config } of configs) {
      if (host === holder) continue;
      expect(blocklistOf(config), host).toContain(blocked);
    }
    const tested = run(NEBULA, ["-test", "-config", file("peer.yml", configs[0].config)]);
    expect(tested.code, tested.out).toBe(0);
  }

  it("a Thing deactivated: every other host's config blocks its certificate at once, and no other host row is written", async () => {
    const owner = await w.client("owner");
    const created = (await owner.send("/api/org/things", {
      method: "POST",
      body: { name: "retired-device", overlay: { mode: "auto", network_id: w.a.overlay_networks.id, overlay_ip: "10.42.2.1" } },
    })) as { id: string };
    const device = await w.su.collection("things").getOne(created.id);
    const host = await w.su.collection("overlay_hosts").getOne(device.overlay_host);
    const before = await stamps();

    await owner.collection("things").update(device.id, { active: false });

    await expectBlockedEverywhere(host.fingerprint, host.id);
    const after = await stamps();
    for (const [id, updated] of before) if (id !== host.id) expect(after.get(id), id).toBe(updated);
    expect(after.get(host.id)).not.toBe(before.get(host.id));
  });

  it("a host deactivated directly: the same, without re-signing it", async () => {
    const owner = await w.client("owner");
    const target = peers[0];
    const before = await stamps();

    const off = await owner.collection("overlay_hosts").update(target.id, { active: false });
    expect(off.fingerprint).toBe(target.fingerprint);

    await expectBlockedEverywhere(target.fingerprint, target.id);
    const after = await stamps();
    for (const [id, updated] of before) if (id !== target.id) expect(after.get(id), id).toBe(updated);
  });

  it("reactivation re-signs; the old certificate stays blocked everywhere, the new one nowhere", async () => {
    const owner = await w.client("owner");
    const target = peers[1];
    await owner.collection("overlay_hosts").update(target.id, { active: false });
    const before = await stamps();

    const on = await owner.collection("overlay_hosts").update(target.id, { active: true });
    expect(on.fingerprint).not.toBe(target.fingerprint);
    // The host's own config blocks its old certificate too.
    expect(blocklistOf(on.config_yaml)).toContain(target.fingerprint);
    expect(blocklistOf(on.config_yaml)).not.toContain(on.fingerprint);

    await expectBlockedEverywhere(target.fingerprint, "");
    const listed = await owner.collection("overlay_hosts").getFullList({ filter: "active = true" });
    for (const h of listed) expect(blocklistOf(h.config_yaml), h.id).not.toContain(on.fingerprint);
    const after = await stamps();
    for (const [id, updated] of before) if (id !== target.id) expect(after.get(id), id).toBe(updated);
  });

  it("a host created inactive is blocked in the configs already issued", async () => {
    const owner = await w.client("owner");
    const dormant = await owner.collection("overlay_hosts").create({
      organization: w.a.organization.id, network: w.a.overlay_networks.id, name: "dormant", overlay_ip: "10.42.3.1", active: false,
    });
    expect(dormant.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    await expectBlockedEverywhere(dormant.fingerprint, dormant.id);
  });

  it("a host deleted: its certificate is blocked in every config left, as a deactivation's is", async () => {
    const owner = await w.client("owner");
    const doomed = await owner.collection("overlay_hosts").create({
      organization: w.a.organization.id, network: w.a.overlay_networks.id, name: "doomed", overlay_ip: "10.42.3.2", active: true,
    });
    await owner.collection("overlay_hosts").delete(doomed.id);
    await expectBlockedEverywhere(doomed.fingerprint, doomed.id);
  });

  it("migration 1764000005 puts hosts already inactive on the list (a database written before the list was the blocklist)", async () => {
    const owner = await w.client("owner");
    const dormant = await owner.collection("overlay_hosts").create({
      organization: w.a.organization.id, network: w.a.overlay_networks.id, name: "dormant-before", overlay_ip: "10.42.3.2", active: false,
    });
    // Before the change a host saved inactive was blocked by being inactive, not by the CA's list.
    const sql = (statement: string) => sqlite(platform.dataDir, statement);
    sql(`UPDATE overlay_ca SET revoked_fingerprints = '[]' WHERE organization = '${w.a.organization.id}'; DELETE FROM _migrations WHERE file = '1764000005_inactive_hosts_revoked.js'`);
    const peer = await owner.collection("overlay_hosts").getOne(peers[2].id);
    expect(blocklistOf(peer.config_yaml)).not.toContain(dormant.fingerprint);

    const migrated = await migrateUp(platform);
    expect(migrated.code, migrated.stderr).toBe(0);

    await expectBlockedEverywhere(dormant.fingerprint, dormant.id);
    // Idempotent: a second run adds nothing.
    const listed = async () => (await w.su.collection("overlay_ca").getOne(w.a.overlay_ca.id)).revoked_fingerprints as string[];
    const once = await listed();
    sql(`DELETE FROM _migrations WHERE file = '1764000005_inactive_hosts_revoked.js'`);
    expect((await migrateUp(platform)).code).toBe(0);
    expect(await listed()).toEqual(once);
  });

  it("another organization's hosts never see the list", async () => {
    const foreign = await w.client("foreign_owner");
    const ca = await w.su.collection("overlay_ca").getOne(w.a.overlay_ca.id);
    // An entry is [fingerprint, notAfter] (a bare fingerprint when written before expiries were kept).
    const revoked = (ca.revoked_fingerprints as unknown[]).map((entry) => (Array.isArray(entry) ? entry[0] : entry) as string);
    expect(revoked.length).toBeGreaterThan(0);
    for (const h of await foreign.collection("overlay_hosts").getFullList()) {
      for (const f of revoked) expect(blocklistOf(h.config_yaml)).not.toContain(f);
    }
  });
});
