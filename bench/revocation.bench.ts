// Revoke-and-replace of one bus user through the record API (`revoke: true`) against the length of its
// account's revocation list (issue 36 item 5): the list is preloaded by a SuperUser's edit to 50, 500 and
// 5,000 entries of user-key-shaped keys, then each revocation adds one. Two ways, side by side:
// - back to back: each revocation as soon as the last one answered, so a claim signed after its write
//   (docs/bus.md "Deferred signing", from 64 KiB of claim) is signed while the next request runs;
// - one at a time: the answer, and when the hub has confirmed the claim that refuses the replaced
//   credential (the user's record, read every 10 ms, says `bus_confirmed`), before the next revocation;
//   the replaced credential is then tried once, and must be refused.
// Figures are printed, never asserted.
import { randomInt } from "node:crypto";
import { busAccepts, startPlatformWithBus } from "../e2e/harness/bus";
import { unique } from "../e2e/harness/world";
import { measure, report } from "./stats";

const LENGTHS = (process.env.BENCH_REVOCATION_LENGTHS ?? "50,500,5000").split(",").filter(Boolean).map(Number);
const SAMPLES = Number(process.env.BENCH_REVOCATION_SAMPLES ?? 30);
const ONE_AT_A_TIME = Number(process.env.BENCH_REVOCATION_ONE_AT_A_TIME ?? 15);
const WARMUP = 3;
/** Longer than any revocation takes to reach the hub. */
const CONFIRMED_WITHIN_MS = 10_000;
const POLL_MS = 10;
const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const userKeyShape = () => `U${Array.from({ length: 55 }, () => BASE32[randomInt(32)]).join("")}`;

const bus = await startPlatformWithBus();
try {
  const su = await bus.platform.superuser();
  for (const length of LENGTHS) {
    const organization = await su.collection("organizations").create({ name: "Revocations", code: unique("rev"), active: true });
    const account = await su.collection("bus_accounts").getFirstListItem(su.filter("organization = {:org}", { org: organization.id }));
    const cutoff = Math.floor(Date.now() / 1000);
    await su.collection("bus_accounts").update(account.id, { revocations: Object.fromEntries(Array.from({ length }, () => [userKeyShape(), cutoff])) });
    const user = await su.collection("bus_users").create({ organization: organization.id, name: unique("revoked") });
    const backToBack = await measure(SAMPLES, WARMUP, () => su.collection("bus_users").update(user.id, { revoke: true }));
    const claim = (await su.collection("bus_accounts").getOne(account.id)).jwt as string;
    const label = `${length} entries on the list (claim ${(claim.length / 1024).toFixed(0)} KiB)`;
    report(`revoke-and-replace back to back, ${label}`, backToBack, [50, 95, 99]);

    const answered: number[] = [];
    const confirmed: number[] = [];
    let creds = (await su.collection("bus_users").getOne(user.id)).creds_file as string;
    for (let i = 0; i < ONE_AT_A_TIME; i++) {
      const start = performance.now();
      let record = await su.collection("bus_users").update(user.id, { revoke: true });
      answered.push(performance.now() - start);
      while (!record.bus_confirmed && performance.now() - start < CONFIRMED_WITHIN_MS) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        record = await su.collection("bus_users").getOne(user.id);
      }
      confirmed.push(performance.now() - start);
      if (await busAccepts(bus.busUrl, creds)) throw new Error("a replaced credential was still admitted once its revocation was confirmed");
      creds = record.creds_file as string;
    }
    report(`revoke-and-replace one at a time, ${label}: answered`, answered, [50, 95]);
    report(`revoke-and-replace one at a time, ${label}: confirmed by the hub`, confirmed, [50, 95]);
  }
} finally {
  await bus.stop();
}
