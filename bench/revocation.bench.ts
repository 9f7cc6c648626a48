// Revoke-and-replace of one bus user through the record API (`revoke: true`) against the length of its
// account's revocation list (issue 36 item 5): the list is preloaded by a SuperUser's edit to 50, 500 and
// 5,000 entries of user-key-shaped keys, then each revocation adds one. Figures are printed, never asserted.
import { randomInt } from "node:crypto";
import { startPlatformWithBus } from "../e2e/harness/bus";
import { unique } from "../e2e/harness/world";
import { measure, report } from "./stats";

const LENGTHS = (process.env.BENCH_REVOCATION_LENGTHS ?? "50,500,5000").split(",").filter(Boolean).map(Number);
const SAMPLES = Number(process.env.BENCH_REVOCATION_SAMPLES ?? 30);
const WARMUP = 3;
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
    const samples = await measure(SAMPLES, WARMUP, () => su.collection("bus_users").update(user.id, { revoke: true }));
    const claim = (await su.collection("bus_accounts").getOne(account.id)).jwt as string;
    report(`revoke-and-replace, ${length} entries on the list (claim ${(claim.length / 1024).toFixed(0)} KiB)`, samples, [50, 95, 99]);
  }
} finally {
  await bus.stop();
}
