// The page of overlay hosts an owner reads (30, as list-pages.bench.ts) in an organization that has
// deactivated 10,000 hosts (issue 36): every config served carries the CA's whole blocklist
// (docs/overlay.md "Deactivation"), so the page is 30 configs of 10,000 fingerprints each. Timed with the
// 10,000 certificates still valid (nothing to prune) and once all have expired (pruned at read time, no write
// since, so the stored row still holds them), and, to say where the time goes, a control: the same page with
// an empty list and every stored config 690 kB longer (a comment block as long as the 10,000 lines), which
// costs PocketBase's serialization and the client's parse the same and the blocklist nothing.
// Figures are printed, never asserted.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { startPlatform, type Platform } from "../e2e/harness/platform";
import { client, createMember, createOrganization, PASSWORD } from "../e2e/harness/world";
import { HOST_FIELDS } from "../common/overlay/list-fields";
import { measure, report } from "./stats";

const DEACTIVATED = 10_000;
const ACTIVE = 100;
const ITERATIONS = 60;
const WARMUP = 5;
const PERCENTILES = [50, 95, 99] as const;

/**
 * DEACTIVATED inactive hosts, copies of `template` under distinct ids, addresses and fingerprints, whose
 * certificates expire at `notAfter`, all on the CA's list as a deactivation stores them (overlay/revocations.ts).
 */
function seedDeactivated(platform: Platform, organization: string, template: string, notAfter: Date): void {
  const stored = notAfter.toISOString().replace("T", " ");
  const seconds = Math.floor(notAfter.getTime() / 1000);
  const sql = `
    PRAGMA busy_timeout = 10000;
    DELETE FROM overlay_hosts WHERE id LIKE 'deadhost%';
    WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i < ${DEACTIVATED - 1})
    INSERT INTO overlay_hosts (id, organization, network, name, overlay_ip, groups, active, is_lighthouse, public_endpoint,
                               cert, private_key, fingerprint, not_after, config_yaml, created, updated)
    SELECT printf('deadhost%07d', i), t.organization, t.network, 'dead-' || i,
           printf('10.%d.%d.%d', 100 + i / 62500, (i / 250) % 250, i % 250 + 1), '[]', 0, 0, '',
           t.cert, t.private_key, printf('%064x', 1000000000 + i), '${stored}', t.config_yaml,
           strftime('%Y-%m-%d %H:%M:%fZ', 'now', '-1 day'), strftime('%Y-%m-%d %H:%M:%fZ', 'now', '-1 day')
    FROM seq, overlay_hosts t WHERE t.id = '${template}';
    UPDATE overlay_ca SET revoked_fingerprints = (
      SELECT json_group_array(json_array(fingerprint, ${seconds}))
      FROM (SELECT fingerprint, not_after FROM overlay_hosts WHERE id LIKE 'deadhost%' ORDER BY id))
    WHERE organization = '${organization}';`;
  execFileSync("sqlite3", [join(platform.dataDir, "data.db")], { input: sql });
}

/** The time `seconds` from now. */
const fromNow = (seconds: number) => new Date(Date.now() + seconds * 1000);

const platform = await startPlatform();
try {
  const su = await platform.superuser();
  const organization = (await createOrganization(su, "HostsPage")).id;
  const member = await createMember(su, organization, "owner");
  const owner = client(platform.url);
  await owner.collection("users").authWithPassword(member.email as string, PASSWORD);
  const network = await su.collection("overlay_networks").create({ organization, name: "page", cidr: "10.0.0.0/8" });
  let template = "";
  for (let i = 0; i < ACTIVE; i++) {
    const host = await su.collection("overlay_hosts").create({ organization, network: network.id, name: `live-${i}`, overlay_ip: `10.1.${Math.floor(i / 250)}.${(i % 250) + 1}`, active: true });
    template ||= host.id;
  }
  const hosts = owner.collection("overlay_hosts");
  // The first page, as list-pages.bench.ts asks for it: the active hosts, made first, each serving the whole list.
  const page = () => hosts.getList(1, 30);
  const blocked = async (): Promise<number> => {
    const first = (await page()).items[0].config_yaml as string;
    // Only the blocklist has lines of a bare 64-hex fingerprint.
    return (first.match(/^ {2}- [0-9a-f]{64}$/gm) ?? []).length;
  };
  const label = (what: string) => `hosts page with ${DEACTIVATED.toLocaleString("en")} deactivated, ${what}`;

  report(`hosts page with 0 deactivated (${ACTIVE} active)`, await measure(ITERATIONS, WARMUP, () => page()), PERCENTILES);

  seedDeactivated(platform, organization, template, fromNow(365 * 24 * 3600));
  const entries = await blocked();
  if (entries !== DEACTIVATED) throw new Error(`expected ${DEACTIVATED} fingerprints in a config, saw ${entries}`);
  const bytes = JSON.stringify(await page()).length;
  report(label(`certificates valid (${(bytes / 1e6).toFixed(1)} MB page)`), await measure(ITERATIONS, WARMUP, () => page()), PERCENTILES);
  // The console's hosts page asks for the columns it shows: no config is built or sent.
  const consolePage = () => hosts.getList(1, 30, { fields: HOST_FIELDS });
  const consoleBytes = JSON.stringify(await consolePage()).length;
  report(label(`certificates valid, the console's page (fields: its columns, ${(consoleBytes / 1e3).toFixed(1)} kB)`), await measure(ITERATIONS, WARMUP, () => consolePage()), PERCENTILES);

  seedDeactivated(platform, organization, template, fromNow(-3600));
  const pruned = await blocked();
  if (pruned !== 0) throw new Error(`expected the expired fingerprints pruned, saw ${pruned}`);
  report(label("certificates expired (pruned)"), await measure(ITERATIONS, WARMUP, () => page()), PERCENTILES);

  execFileSync("sqlite3", [join(platform.dataDir, "data.db")], {
    input: `PRAGMA busy_timeout = 10000;
      UPDATE overlay_ca SET revoked_fingerprints = '[]' WHERE organization = '${organization}';
      UPDATE overlay_hosts SET config_yaml = config_yaml || (
        WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i < ${DEACTIVATED - 1})
        SELECT group_concat(printf('# - %064x', i), char(10)) FROM seq)
      WHERE organization = '${organization}' AND id NOT LIKE 'deadhost%';`,
  });
  report(`control: the same page, empty list, each stored config ${DEACTIVATED.toLocaleString("en")} comment lines longer`, await measure(ITERATIONS, WARMUP, () => page()), PERCENTILES);
} finally {
  await platform.stop();
}
