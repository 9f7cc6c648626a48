// Change notices (issue 37 item 5): fan-out to 10,000 devices' notice subjects, and commit → notice at
// the device for one change made through the record API. Subscribers are 20 connections of 500
// subscriptions each, under one credential signed here for the organization's account without the
// per-slot denials (one device may hold only its own subject; 10,000 real devices are 10,000 processes).
// The publisher is the sidecar's own connection pool (sidecar/nats.ts) with the platform's system user,
// as the hooks' POST /v1/nats/publish uses it. Figures are printed, never asserted.
import { encodeUser, fmtCreds } from "@nats-io/jwt";
import { createUser, fromSeed } from "@nats-io/nkeys";
import type { NatsConnection } from "@nats-io/nats-core";
import { userNoticeSubject } from "../common/bus/notices";
import { connectWithCreds, startPlatformWithBus } from "../e2e/harness/bus";
import { unique } from "../e2e/harness/world";
import { NatsPool } from "../sidecar/nats";
import { measure, report } from "./stats";

const DEVICES = Number(process.env.BENCH_NOTICE_DEVICES ?? 10_000);
const CONNECTIONS = 20;
const ROUNDS = Number(process.env.BENCH_NOTICE_ROUNDS ?? 5);
const COMMITS = Number(process.env.BENCH_NOTICE_COMMITS ?? 30);
const encode = (text: string) => new TextEncoder().encode(text);
const now = () => performance.timeOrigin + performance.now();

const bus = await startPlatformWithBus();
const pool = new NatsPool();
const open: NatsConnection[] = [];
try {
  const su = await bus.platform.superuser();
  const organization = await su.collection("organizations").create({ name: "Notices", code: unique("notices"), active: true });
  const account = await su.collection("bus_accounts").getFirstListItem(su.filter("organization = {:org}", { org: organization.id }));
  const operator = (await su.collection("bus_system_operator").getFullList())[0];
  const accountPub = account.public_key as string;

  const listener = createUser();
  const listenerJwt = await encodeUser("bench-listener", listener, accountPub, {}, { signer: fromSeed(encode((account.signing_seeds as string[])[0])) });
  const listenerCreds = new TextDecoder().decode(fmtCreds(listenerJwt, listener));

  // Fan-out: every device's subject gets one notice per round.
  const arrivals: number[] = [];
  for (let c = 0; c < CONNECTIONS; c++) {
    const nc = await connectWithCreds(bus.busUrl, listenerCreds);
    open.push(nc);
    for (let slot = 1 + c; slot <= DEVICES; slot += CONNECTIONS) {
      nc.subscribe(userNoticeSubject(accountPub, slot), { callback: () => void arrivals.push(now()) });
    }
    await nc.flush();
  }
  const publisher = { servers: [bus.busUrl], creds: operator.sys_user_creds as string };
  const messages = Array.from({ length: DEVICES }, (_, i) => ({ subject: userNoticeSubject(accountPub, i + 1), payload: JSON.stringify({ changed: "bus_user", revision: String(i) }) }));
  await pool.publish(publisher, messages.slice(0, 10), 5_000);
  const latencies: number[] = [];
  const lastArrivals: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    arrivals.length = 0;
    const started = now();
    await pool.publish(publisher, messages, 30_000);
    const deadline = now() + 30_000;
    while (arrivals.length < DEVICES && now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    latencies.push(...arrivals.map((at) => at - started));
    lastArrivals.push(Math.max(...arrivals) - started);
    if (arrivals.length < DEVICES) console.log(`round ${round}: ${arrivals.length} of ${DEVICES} notices arrived within 30 s`);
  }
  report(`notice fan-out to ${DEVICES} device subjects (publish of the batch -> each arrival, ${ROUNDS} rounds)`, latencies, [50, 95, 99]);
  report(`notice fan-out to ${DEVICES} device subjects: the last arrival of each round`, lastArrivals, [50, 99]);

  // Commit -> notice: a rotation through the record API, heard on the user's own subject.
  const user = await su.collection("bus_users").create({ organization: organization.id, name: unique("noticed"), active: true });
  const slot = Number((JSON.parse(Buffer.from((user.jwt as string).split(".")[1], "base64url").toString()) as { nats: { tags: string[] } }).nats.tags[0].split(":")[1]);
  let heard: (() => void) | undefined;
  open[0].subscribe(userNoticeSubject(accountPub, slot), { callback: () => heard?.() });
  await open[0].flush();
  const samples = await measure(COMMITS, 3, async () => {
    const arrived = new Promise<void>((resolve) => (heard = resolve));
    await su.collection("bus_users").update(user.id, { regenerate: true });
    await arrived;
  });
  report("commit of a rotation -> its notice at the device (record API round trip included)", samples, [50, 95, 99]);
} finally {
  await Promise.allSettled(open.map((nc) => nc.close()));
  await pool.closeAll();
  await bus.stop();
}
