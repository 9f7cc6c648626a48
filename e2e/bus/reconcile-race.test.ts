// The minute's reconciliation withdraws accounts the bus holds without a row (an organization deleted
// while the bus was down), and never the account of an organization created while it runs. Until
// 2026-11-25 it read the rows before listing the bus's accounts, so an organization that committed and
// published in between was taken for an orphan: its devices were refused until the next minute.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPlatformWithBus, type PlatformWithBus } from "../harness/bus";
import { unique } from "../harness/world";
import { sqlite } from "../harness/sqlite";

let bus: PlatformWithBus;
beforeAll(async () => {
  bus = await startPlatformWithBus();
}, 120_000);
afterAll(async () => {
  await bus?.stop();
});

/** `conn` of the claim the bus's resolver holds for `account` (0: withdrawn), or undefined without one. */
function connections(account: string): number | undefined {
  const file = join(bus.nats().configDir, "resolver", `${account}.jwt`);
  if (!existsSync(file)) return undefined;
  const payload = readFileSync(file, "utf8").trim().split(".")[1];
  return (JSON.parse(Buffer.from(payload, "base64url").toString()) as { nats?: { limits?: { conn?: number } } }).nats?.limits?.conn;
}

describe("the minute's reconciliation", () => {
  it("withdraws an account without a row, and none of the organizations created while it runs", { timeout: 180_000 }, async () => {
    const su = await bus.platform.superuser();

    // Organizations are created from 15 s before a minute's tick until its pass has withdrawn the orphan.
    // The pass follows the publication of every account, and its window grows with their number, so
    // creating from the start would only make the test slower. The orphan is made after the wait, so no
    // earlier pass withdraws it before the organizations are being created.
    const untilTick = 60_000 - (Date.now() % 60_000);
    await new Promise((resolve) => setTimeout(resolve, (untilTick + 45_000) % 60_000));

    // An orphan: the bus holds its claim, its row is gone without the hooks seeing it.
    const orphanOrg = await su.collection("organizations").create({ name: "Orphan", code: unique("orphan"), active: true });
    const orphan = (await su.collection("bus_accounts").getFirstListItem(`organization = "${orphanOrg.id}"`)).public_key as string;
    expect(connections(orphan)).not.toBe(0);
    sqlite(bus.platform.dataDir, `DELETE FROM bus_accounts WHERE public_key = '${orphan}'`);

    const withdrawn = () => bus.platform.log().includes(`bus: withdrew the account ${orphan}`);
    const created = new Set<string>();
    let gaveUp = false;
    const creators = [0, 1, 2].map(async () => {
      while (!withdrawn() && !gaveUp) {
        created.add((await su.collection("organizations").create({ name: "Created meanwhile", code: unique("meanwhile"), active: true })).id);
      }
    });
    const passed = await Promise.race([Promise.all(creators).then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 90_000))]);
    gaveUp = true;
    await Promise.all(creators);
    expect(passed, "the minute's pass did not withdraw the orphan within 90 s").toBe(true);
    expect(withdrawn()).toBe(true);
    expect(connections(orphan)).toBe(0);

    expect(created.size).toBeGreaterThan(0);
    const accounts = await su.collection("bus_accounts").getFullList({ fields: "organization,public_key", batch: 1000 });
    const wrongly = accounts.filter((a) => created.has(a.organization as string) && connections(a.public_key as string) === 0).map((a) => a.organization);
    expect(wrongly).toEqual([]);
  });
});
