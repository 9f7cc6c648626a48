// Deactivation of an overlay host at 100 and at 10,000 active hosts in one organization (issue 9, target 2):
// a Thing's things.active true→false (cascading onto its host), a host's active false directly, and its
// reactivation (re-signed). The write touches one CA row whatever the size; reads assemble the blocklist
// (docs/overlay.md "Deactivation"), so a page of hosts read by the owner is timed too, also with a CA that
// has revoked 10,000 certificates. Figures are printed, never asserted.
import { startPlatform } from "../e2e/harness/platform";
import { seedOverlay, seedRevocations } from "./overlay-dataset";
import { measure, report } from "./stats";

const ITERATIONS = 40;
const WARMUP = 5;
const PERCENTILES = [50, 95, 99];

for (const hosts of [100, 10_000]) {
  const platform = await startPlatform();
  try {
    const { owner, organization, things, bulkHosts } = await seedOverlay(platform, hosts, ITERATIONS + WARMUP);
    const label = (what: string) => `overlay ${what}, ${hosts.toLocaleString("en")} active hosts`;
    const thingsApi = owner.collection("things");
    const hostsApi = owner.collection("overlay_hosts");

    report(label("deactivate a Thing (things.active false, cascade)"), await measure(ITERATIONS, WARMUP, (i) => thingsApi.update(things[i], { active: false })), PERCENTILES);
    report(label("deactivate a host (overlay_hosts.active false)"), await measure(ITERATIONS, WARMUP, (i) => hostsApi.update(bulkHosts[i], { active: false })), PERCENTILES);
    report(label("reactivate a host (re-signed)"), await measure(ITERATIONS, WARMUP, (i) => hostsApi.update(bulkHosts[i], { active: true })), PERCENTILES);
    report(label("one page (30) of hosts as the owner"), await measure(ITERATIONS, WARMUP, () => hostsApi.getList(1, 30, { skipTotal: true })), PERCENTILES);
    seedRevocations(platform, organization, 10_000);
    report(label("one page (30) of hosts, 10,000 revoked"), await measure(ITERATIONS, WARMUP, () => hostsApi.getList(1, 30, { skipTotal: true })), PERCENTILES);
  } finally {
    await platform.stop();
  }
}
