// One page of things listed as a member, with 100,000 things across 100 organizations (platform-core
// issue, item 12), seeded by things-dataset.ts.
import { startPlatform } from "../e2e/harness/platform";
import { client, PASSWORD } from "../e2e/harness/world";
import { measure, report } from "./stats";
import { ORGANIZATIONS, seedThings, THINGS } from "./things-dataset";

const platform = await startPlatform();
try {
  const members = await seedThings(platform);

  const member = client(platform.url);
  await member.collection("users").authWithPassword(members[0], PASSWORD);
  const page = await member.collection("things").getList(1, 30);
  if (page.totalItems !== THINGS / ORGANIZATIONS) throw new Error(`expected ${THINGS / ORGANIZATIONS} things, saw ${page.totalItems}`);

  report("things: one page (30) as a member, 100k things / 100 orgs", await measure(200, 20, () => member.collection("things").getList(1, 30)));
  report("things: one page sorted by -created, skipTotal", await measure(200, 20, () => member.collection("things").getList(1, 30, { sort: "-created", skipTotal: true })));
} finally {
  await platform.stop();
}
