// One page (30) of each large org-scoped collection with its total (the SDK's getList default), read by
// a tenant and by a SuperUser (who bypasses rules) in the same run: 100,000 rows of each collection in
// ONE organization, plus the 100,000 Things across 100 organizations of things-dataset.ts (the earlier
// things-list figures, kept). The tenant must not pay much more than the SuperUser for the same page
// (docs/performance.md "List pages").
import type PocketBase from "pocketbase";
import { startPlatform } from "../e2e/harness/platform";
import { client, createMember, createOrganization, PASSWORD } from "../e2e/harness/world";
import { bulkInsert, insertForOrganization, ROWS, THINGS_INSERT } from "./organization-rows";
import { measure, percentile, report } from "./stats";
import { ORGANIZATIONS, seedThings, THINGS } from "./things-dataset";

const PERCENTILES = [50, 95, 99] as const;

async function seedLargeOrganization(dataDir: string, su: PocketBase): Promise<{ owner: string; member: string }> {
  const org = await createOrganization(su, "Pages");
  const owner = (await createMember(su, org.id, "owner")).email as string;
  const member = (await createMember(su, org.id, "member")).email as string;
  const network = await su.collection("overlay_networks").create({ organization: org.id, name: "net", cidr: "10.0.0.0/8" });
  insertForOrganization(dataDir, org.id, [
    THINGS_INSERT,
    bulkInsert("locations", "name", `'Location ' || i`),
    bulkInsert("bus_users", "name, active", `'bus user ' || i, 1`),
    bulkInsert("overlay_hosts", "name, network, overlay_ip, active",
      `'host ' || i, '${network.id}', printf('10.%d.%d.%d', i / 65536, (i / 256) % 256, i % 256), 1`),
  ]);
  return { owner, member };
}

async function signIn(url: string, email: string): Promise<PocketBase> {
  const pb = client(url);
  await pb.collection("users").authWithPassword(email, PASSWORD);
  return pb;
}

/** Tenant and SuperUser alternate request by request, so drift of the shared machine hits both alike. */
async function compare(name: string, collection: string, tenant: PocketBase, su: PocketBase, expected: number): Promise<void> {
  const page = (pb: PocketBase) => pb.collection(collection).getList(1, 30);
  const first = await page(tenant);
  if (first.totalItems !== expected) throw new Error(`${collection}: expected ${expected} rows, saw ${first.totalItems}`);
  const tenantMs: number[] = [];
  const suMs: number[] = [];
  const timed = async (pb: PocketBase, into: number[]) => {
    const start = performance.now();
    await page(pb);
    into.push(performance.now() - start);
  };
  await measure(300, 30, async (i) => (i % 2 === 0 ? timed(tenant, tenantMs) : timed(su, suMs)));
  const warm = (samples: number[]) => samples.slice(15);
  report(`${name}`, warm(tenantMs), PERCENTILES);
  report(`${collection}: same page as a SuperUser`, warm(suMs), PERCENTILES);
  const p50 = (s: number[]) => percentile([...warm(s)].sort((a, b) => a - b), 50);
  console.log(`${collection}: tenant/SuperUser p50 ratio = ${(p50(tenantMs) / p50(suMs)).toFixed(2)}`);
}

const platform = await startPlatform();
try {
  const su = await platform.superuser();
  const spread = await seedThings(platform);
  const large = await seedLargeOrganization(platform.dataDir, su);
  const owner = await signIn(platform.url, large.owner);
  const member = await signIn(platform.url, large.member);

  await compare("things: one page (30) as a member, 100k things in one org", "things", member, su, ROWS);
  // An owner's page also runs PocketBase's manage-rule check over the page's ids (things are auth records).
  await compare("things: one page (30) as an owner, 100k things in one org", "things", owner, su, ROWS);
  // The same page without its total: what the count over the organization's 100,000 rows costs.
  report("things: same page as a member, skipTotal", await measure(200, 20, () => member.collection("things").getList(1, 30, { skipTotal: true })), PERCENTILES);
  // The pages the console asks for: sorted (Things by code, its default; newest first; the others by name).
  // A SuperUser's sorted page sorts the whole table (no organization to seek), so these are tenant-only.
  const sortedPage = async (name: string, pb: PocketBase, collection: string, sort: string) =>
    report(name, await measure(200, 20, () => pb.collection(collection).getList(1, 30, { sort })), PERCENTILES);
  await sortedPage("things: the console's page (sorted by code) as a member, 100k in one org", member, "things", "code");
  await sortedPage("things: newest first (-created) as a member, 100k in one org", member, "things", "-created");
  await sortedPage("locations: sorted by name as an owner, 100k in one org", owner, "locations", "name");
  await sortedPage("bus_users: sorted by name as an owner, 100k in one org", owner, "bus_users", "name");
  await sortedPage("overlay_hosts: sorted by name as an owner, 100k in one org", owner, "overlay_hosts", "name");
  await compare("locations: one page (30) as an owner, 100k in one org", "locations", owner, su, ROWS);
  await compare("bus_users: one page (30) as an owner, 100k in one org", "bus_users", owner, su, ROWS);
  await compare("overlay_hosts: one page (30) as an owner, 100k in one org", "overlay_hosts", owner, su, ROWS);

  const spreadMember = await signIn(platform.url, spread[0]);
  const perOrg = THINGS / ORGANIZATIONS;
  const first = await spreadMember.collection("things").getList(1, 30);
  if (first.totalItems !== perOrg) throw new Error(`expected ${perOrg} things, saw ${first.totalItems}`);
  report("things: one page (30) as a member, 100k things / 100 orgs", await measure(200, 20, () => spreadMember.collection("things").getList(1, 30)), PERCENTILES);
  report("things: same, sorted by -created, skipTotal", await measure(200, 20, () => spreadMember.collection("things").getList(1, 30, { sort: "-created", skipTotal: true })), PERCENTILES);
} finally {
  await platform.stop();
}
