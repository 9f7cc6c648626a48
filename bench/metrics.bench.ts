// One GET /metrics scrape with 100,000 things across 100 organizations (bench/things-dataset.ts), plus
// the counters of a few hundred earlier requests. Figures are printed, never asserted.
import { startPlatform } from "../e2e/harness/platform";
import { measure, report } from "./stats";
import { seedThings, THINGS } from "./things-dataset";

const platform = await startPlatform();
try {
  await seedThings(platform);
  const scrape = async () => {
    const response = await fetch(`${platform.url}/metrics`);
    if (response.status !== 200) throw new Error(`GET /metrics answered ${response.status}`);
    return response.text();
  };
  if (!(await scrape()).includes(`platform_records{collection="things"} ${THINGS}`)) throw new Error(`the scrape does not count ${THINGS} things`);
  // Some request series to render, as a serving platform has.
  await Promise.all(Array.from({ length: 300 }, (_, i) => fetch(`${platform.url}/api/${i % 3 === 0 ? "health" : "collections/things/records"}`)));
  report("metrics: one scrape, 100k things / 100 orgs", await measure(100, 10, scrape));
} finally {
  await platform.stop();
}
