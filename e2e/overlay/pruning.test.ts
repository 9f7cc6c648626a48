// A revoked certificate leaves the served blocklist once it has expired (docs/overlay.md "Pruning"): nebula
// refuses an expired certificate by itself, so the configs stop growing with every host ever deactivated.
import yaml from "js-yaml";
import { describe, expect, it } from "vitest";
import { useWorld } from "../harness/world";
import { migrateUp } from "../harness/platform";
import { sqlite } from "../harness/sqlite";
import { EXPIRY_MARGIN_SECONDS, notAfterSeconds } from "../../pb_hooks_src/overlay/revocations";

const blocklistOf = (configYaml: string): string[] => (yaml.load(configYaml) as { pki: { blocklist: string[] } }).pki.blocklist;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("overlay blocklist pruning", () => {
  const { platform, world: w } = useWorld();

  it("a deactivated host is blocked while its certificate is valid, gone once it has expired, and the config is as before", async () => {
    const owner = await w.client("owner");
    const create = (name: string, ip: string) =>
      owner.collection("overlay_hosts").create({ organization: w.a.organization.id, network: w.a.overlay_networks.id, name, overlay_ip: ip, active: true });
    const peer = await create("prune-peer", "10.42.6.1");
    const doomed = await create("prune-doomed", "10.42.6.2");
    const other = await create("prune-other", "10.42.6.3");
    const served = async () => (await owner.collection("overlay_hosts").getOne(peer.id)).config_yaml as string;
    const listed = async () => (await owner.collection("overlay_hosts").getFullList({ filter: `id = "${peer.id}"` }))[0].config_yaml as string;
    const stored = async () => (await w.su.collection("overlay_ca").getOne(w.a.overlay_ca.id)).revoked_fingerprints as unknown[];
    const before = await served();

    await owner.collection("overlay_hosts").update(doomed.id, { active: false });

    // Stored with the certificate's own expiry (a year from now: the API issues nothing shorter).
    expect(await stored()).toContainEqual([doomed.fingerprint, notAfterSeconds(doomed.not_after)]);
    expect(blocklistOf(await served())).toContain(doomed.fingerprint);
    expect(blocklistOf(await listed())).toContain(doomed.fingerprint);
    // A list that asks for config_yaml among its fields gets it with the blocklist too; one that leaves it
    // out (the console's page) gets no config at all.
    const withFields = async (fields: string) => (await owner.collection("overlay_hosts").getFullList({ filter: `id = "${peer.id}"`, fields }))[0];
    expect(blocklistOf((await withFields("id,config_yaml")).config_yaml as string)).toContain(doomed.fingerprint);
    expect(blocklistOf((await withFields("id,expand.network.id,config_yaml")).config_yaml as string)).toContain(doomed.fingerprint);
    expect(await withFields("id,name,fingerprint")).toEqual({ id: peer.id, name: peer.name, fingerprint: peer.fingerprint });

    // The expiry the served list reads is the one stored with the revocation; it is set here to pass in a few
    // seconds (margin included). Same text afterwards: only the clock takes the entry out, with no write.
    const leavesAt = Math.floor(Date.now() / 1000) + 3;
    sqlite(platform.dataDir, `UPDATE overlay_ca SET revoked_fingerprints = (
        SELECT json_group_array(CASE WHEN json_extract(value, '$[0]') = '${doomed.fingerprint}' THEN json_array('${doomed.fingerprint}', ${leavesAt - EXPIRY_MARGIN_SECONDS}) ELSE json(value) END)
        FROM json_each(revoked_fingerprints))
      WHERE organization = '${w.a.organization.id}'`);
    expect(blocklistOf(await served())).toContain(doomed.fingerprint);
    expect(blocklistOf(await listed())).toContain(doomed.fingerprint);

    while (Date.now() / 1000 < leavesAt + 1) await sleep(250);
    expect(blocklistOf(await served())).not.toContain(doomed.fingerprint);
    expect(blocklistOf(await listed())).not.toContain(doomed.fingerprint);
    // Bounded: the peer's config is what it was before the deactivation, to the byte.
    expect(await served()).toBe(before);

    // The next write to the list drops the expired entry from the row too.
    expect((await stored()).some((entry) => Array.isArray(entry) && entry[0] === doomed.fingerprint)).toBe(true);
    await owner.collection("overlay_hosts").update(other.id, { active: false });
    const after = await stored();
    expect(after.some((entry) => (Array.isArray(entry) ? entry[0] : entry) === doomed.fingerprint)).toBe(false);
    expect(after).toContainEqual([other.fingerprint, notAfterSeconds(other.not_after)]);
    expect(blocklistOf(await served())).toEqual(expect.arrayContaining([other.fingerprint]));
    expect(blocklistOf(await served())).not.toContain(doomed.fingerprint);
  });

  it("migration 1764000016 dates a bare entry a host still holds, and keeps one no host holds", async () => {
    const owner = await w.client("owner");
    const dormant = await owner.collection("overlay_hosts").create({
      organization: w.a.organization.id, network: w.a.overlay_networks.id, name: "prune-dormant", overlay_ip: "10.42.6.9", active: false,
    });
    const orphan = "ab".repeat(32);
    // The list as written before expiries were kept: bare fingerprints.
    sqlite(platform.dataDir, `UPDATE overlay_ca SET revoked_fingerprints = json_array('${dormant.fingerprint}', '${orphan}') WHERE organization = '${w.a.organization.id}';
      DELETE FROM _migrations WHERE file = '1764000016_revocation_expiry.js'`);
    const migrated = await migrateUp(platform);
    expect(migrated.code, migrated.stderr).toBe(0);
    const list = (await w.su.collection("overlay_ca").getOne(w.a.overlay_ca.id)).revoked_fingerprints as unknown[];
    expect(list).toEqual([[dormant.fingerprint, notAfterSeconds(dormant.not_after)], orphan]);
    const peer = (await owner.collection("overlay_hosts").getFullList({ filter: "active = true" }))[0];
    expect(blocklistOf(peer.config_yaml)).toEqual(expect.arrayContaining([dormant.fingerprint, orphan]));
  });
});
