// A site's gateway acts on its organization's change notices (issue 37 items 2 and 4): the platform sync
// and the leaf-configuration poll set to an hour, a bus user suspended and another revoked at the hub are
// dropped by the site's leaf once the gateway, told by the account's notice, has given its leaf the new
// claim. The figures (commit → site client closed) are printed; without the notice they would be an hour.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { busAccepts, closedWithin, startPlatformWithBus, type PlatformWithBus } from "../harness/bus";
import { flows, startGatewaySite, type GatewaySite } from "../harness/gateway";

const POLL = "1h";

let bus: PlatformWithBus;
let site: GatewaySite;

beforeAll(async () => {
  bus = await startPlatformWithBus();
  site = await startGatewaySite(bus, { refresh: POLL, uplinkRestartAfter: "30s" });
  await site.ready("hub_uplink", "ok", 60_000);
  await site.agent.waitForLog((line) => line.msg === "notices: listening", 30_000);
}, 150_000);
afterAll(async () => {
  await site?.stop();
  await bus?.stop();
});

describe("a gateway told by notices", () => {
  for (const [change, fields] of [
    ["suspension", { active: false }],
    ["revocation", { revoke: true }],
  ] as const) {
    it(`drops a site client at its bus user's ${change}, with the polls an hour apart`, async () => {
      const target = await site.device();
      const bystander = await site.device();
      const gone = await site.atSite(target.creds);
      const stays = await site.atSite(bystander.creds);
      expect(await flows(gone, stays, `site.${change}.before`)).toBe(true);

      const committedAt = Date.now();
      await site.owner.collection("bus_users").update(target.id, fields);
      expect(await closedWithin(gone, 30_000), "the site client is still connected").toBe(true);
      console.log(`${change} at the hub -> site client dropped: ${Date.now() - committedAt} ms (leaf-config poll ${POLL})`);
      expect(site.agent.logs.some((line) => line.msg === "notices: the platform says something changed" && Date.parse(String(line.time)) >= committedAt)).toBe(true);
      expect(await busAccepts(site.leafUrl, target.creds)).toBe(false);
      expect(stays.isClosed()).toBe(false);
    });
  }
});
