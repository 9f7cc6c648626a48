// The overlay dataset of the deactivation benchmark: one organization with `hosts` active overlay hosts.
// Hosts a measurement changes are made through the API (Things with an overlay host, signed for real);
// the rest are bulk-inserted with the sqlite3 shell as copies of one API-made host under distinct ids,
// addresses and fingerprints (nothing on the measured paths decodes another host's certificate).
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import type PocketBase from "pocketbase";
import type { Platform } from "../e2e/harness/platform";
import { client, createMember, createOrganization, PASSWORD } from "../e2e/harness/world";

export interface OverlayDataset {
  /** A session of the organization's owner. */
  owner: PocketBase;
  organization: string;
  /** Things with an overlay host, active, made through POST /api/org/things. */
  things: string[];
  /** Bulk-inserted active hosts. */
  bulkHosts: string[];
}

/** `hosts` active hosts in all, `things` of them behind Things; the CIDR 10.0.0.0/8 leaves room for any size. */
export async function seedOverlay(platform: Platform, hosts: number, things: number): Promise<OverlayDataset> {
  const su = await platform.superuser();
  const organization = (await createOrganization(su, "OverlayBench")).id;
  const member = await createMember(su, organization, "owner");
  const owner = client(platform.url);
  await owner.collection("users").authWithPassword(member.email as string, PASSWORD);
  const network = await su.collection("overlay_networks").create({ organization, name: "bench", cidr: "10.0.0.0/8" });
  const template = await su.collection("overlay_hosts").create({ organization, network: network.id, name: "template", overlay_ip: "10.255.255.1", active: true });

  const thingIds: string[] = [];
  for (let i = 0; i < things; i++) {
    const created = (await owner.send("/api/org/things", {
      method: "POST",
      body: { name: `device-${i}`, overlay: { mode: "auto", network_id: network.id, overlay_ip: `10.254.${Math.floor(i / 250)}.${(i % 250) + 1}` } },
    })) as { id: string };
    thingIds.push(created.id);
  }

  const bulk = hosts - things - 1;
  const sql = `
    PRAGMA busy_timeout = 10000;
    WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i < ${bulk - 1})
    INSERT INTO overlay_hosts (id, organization, network, name, overlay_ip, groups, active, is_lighthouse, public_endpoint,
                               cert, private_key, fingerprint, not_after, config_yaml, created, updated)
    SELECT printf('bulkhost%07d', i), t.organization, t.network, 'bulk-' || i,
           printf('10.%d.%d.%d', 1 + i / 62500, (i / 250) % 250, i % 250 + 1), '[]', 1, 0, '',
           t.cert, t.private_key, printf('%064x', i + 1), t.not_after, t.config_yaml,
           strftime('%Y-%m-%d %H:%M:%fZ', 'now'), strftime('%Y-%m-%d %H:%M:%fZ', 'now')
    FROM seq, overlay_hosts t WHERE t.id = '${template.id}';`;
  if (bulk > 0) execFileSync("sqlite3", [join(platform.dataDir, "data.db")], { input: sql });
  const bulkHosts = Array.from({ length: Math.max(0, bulk) }, (_, i) => `bulkhost${String(i).padStart(7, "0")}`);
  const { totalItems } = await owner.collection("overlay_hosts").getList(1, 1, { filter: "active = true" });
  if (totalItems !== hosts) throw new Error(`expected ${hosts} active hosts, saw ${totalItems}`);
  return { owner, organization, things: thingIds, bulkHosts };
}

/** Replaces the organization's CA revocation list by `count` made-up fingerprints (a long-lived organization). */
export function seedRevocations(platform: Platform, organization: string, count: number): void {
  const sql = `
    PRAGMA busy_timeout = 10000;
    WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i < ${count - 1})
    UPDATE overlay_ca SET revoked_fingerprints = (SELECT json_group_array(printf('%064x', 1000000000 + i)) FROM seq)
    WHERE organization = '${organization}';`;
  execFileSync("sqlite3", [join(platform.dataDir, "data.db")], { input: sql });
}
