// The bus credential service against the real pinned nats-server started from `bus export`: Thing
// creation with a minted bus identity (the goal: p50 <= 25 ms), organization provisioning
// (account, default role, claim published), and how long a suspension takes to cut off every
// connection of the tenant. Figures are printed, never asserted.
//
// One platform for everything, started with PLATFORM_BUS_DEFAULT_LIMITS_MAX_CONNECTIONS=-1 so that one
// organization can hold the 100 connections of the largest suspension case without sitting exactly at
// the default limit (100 per account), where a restore-probe connection or one still being torn down
// would be refused. The limit is a number in the account claim; it changes the cost of nothing measured.
import type { NatsConnection } from "@nats-io/transport-node";
import type PocketBase from "pocketbase";
import { connectWithCreds, eventually, startPlatformWithBus } from "../e2e/harness/bus";
import { PASSWORD, client, createMember, createUser, unique } from "../e2e/harness/world";
import { measure, report } from "./stats";

const THING_SAMPLES = 150;
const THING_WARMUP = 20;
const ORG_SAMPLES = 60;
const ORG_WARMUP = 5;
const CONNECTIONS = [10, 50, 100];
const REPETITIONS = 5;
const DISCONNECT_DEADLINE_MS = 20_000;

// A connect the server refuses can surface from @nats-io/transport-node 3.4 as an uncaught EPIPE (the
// client writes to the socket the server has just closed). The restore loop below expects refusals, so
// those are counted; anything else still ends the run with a failure.
let brokenPipes = 0;
process.on("uncaughtException", (err: NodeJS.ErrnoException) => {
  if (err.code === "EPIPE" || err.code === "ECONNRESET") {
    brokenPipes++;
    return;
  }
  console.error(err);
  process.exit(1);
});

const bus = await startPlatformWithBus({ env: { PLATFORM_BUS_DEFAULT_LIMITS_MAX_CONNECTIONS: "-1" } });
const open = new Set<NatsConnection>();
try {
  const su = await bus.platform.superuser();
  const operatorUser = await createUser(su, `${unique("operator")}@example.test`, { is_operator: true });
  const operator = await signIn(operatorUser.email as string);

  // 1. Thing creation, as an owner, with and without a bus identity.
  const org = await operator.collection("organizations").create({ name: "Bench things", code: unique("bench-things"), active: true });
  const owner = await signIn((await createMember(su, org.id, "owner")).email as string);
  const createThing = (body: Record<string, unknown>) => owner.send("/api/org/things", { method: "POST", body });
  const made = await createThing({ name: "probe", bus: { mode: "auto" } });
  if (!made.bus_user && !(await su.collection("things").getOne(made.id)).bus_user) throw new Error("bus.mode auto created no bus user");
  report("POST /api/org/things, bus.mode auto, as an owner", await measure(THING_SAMPLES, THING_WARMUP, (i) => createThing({ name: `bus ${i}`, bus: { mode: "auto" } })));
  report("POST /api/org/things, no identity, as an owner", await measure(THING_SAMPLES, THING_WARMUP, (i) => createThing({ name: `plain ${i}` })));
  // Both identities (overlay issue's goal: p50 <= 25 ms): a bus user and an overlay host signed by the CA.
  const network = await su.collection("overlay_networks").create({ organization: org.id, name: "bench", cidr: "10.64.0.0/16" });
  const hostIp = (i: number) => `10.64.${1 + Math.floor(i / 250)}.${1 + (i % 250)}`;
  report("POST /api/org/things, bus.mode auto + overlay.mode auto, as an owner", await measure(THING_SAMPLES, THING_WARMUP, (i) =>
    createThing({ name: `both ${i}`, bus: { mode: "auto" }, overlay: { mode: "auto", network_id: network.id, overlay_ip: hostIp(i) } })));
  // Host creation alone (certificate, key pair, config), through the stock record API.
  report("overlay host creation (stock API), as an owner", await measure(THING_SAMPLES, THING_WARMUP, (i) =>
    owner.collection("overlay_hosts").create({ organization: org.id, network: network.id, name: `host-${i}`, overlay_ip: hostIp(1_000 + i), active: true })));

  // 2. Organization provisioning: account, default role, claim published and confirmed.
  const createOrg = (who: PocketBase, i: number) => who.collection("organizations").create({ name: `Provisioned ${i}`, code: unique("bench-org"), active: true });
  const sample = await createOrg(operator, -1);
  const account = await su.collection("bus_accounts").getFirstListItem(`organization = "${sample.id}"`);
  if (!account.bus_confirmed) throw new Error(`provisioned account not confirmed: ${account.bus_status}`);
  report("create organization (account + default role + claim published), as a Platform Operator", await measure(ORG_SAMPLES, ORG_WARMUP, (i) => createOrg(operator, i)));
  report("create organization (account + default role + claim published), as a SuperUser", await measure(ORG_SAMPLES, ORG_WARMUP, (i) => createOrg(su, 1_000 + i)));

  // 3. Suspension: organizations.active=false sent -> the last client's closed() resolved.
  const tenant = await operator.collection("organizations").create({ name: "Bench suspension", code: unique("bench-susp"), active: true });
  const creds: string[] = [];
  for (let i = 0; i < 2; i++) creds.push((await su.collection("bus_users").create({ organization: tenant.id, name: unique("u") })).creds_file as string);

  // Ten connects at a time: each signs the server's nonce with pure-JS ed25519, and 100 at once on two
  // cores overran nats-server's authentication timeout.
  const dialAll = async (n: number): Promise<NatsConnection[]> => {
    const connections: NatsConnection[] = [];
    for (let i = 0; i < n; i += 10) {
      const batch = await Promise.all(Array.from({ length: Math.min(10, n - i) }, (_, j) => connectWithCreds(bus.busUrl, creds[(i + j) % creds.length])));
      batch.forEach((nc) => open.add(nc));
      connections.push(...batch);
    }
    await Promise.all(connections.map((nc) => nc.flush()));
    return connections;
  };
  let refusal = "";
  const admitted = async () => {
    try {
      const nc = await connectWithCreds(bus.busUrl, creds[0]);
      await nc.close();
      return true;
    } catch (err) {
      refusal = err instanceof Error ? err.message : String(err);
      return false;
    }
  };
  const restore = async () => {
    await operator.collection("organizations").update(tenant.id, { active: true });
    if (await eventually(admitted, 5_000)) return;
    const account = await su.collection("bus_accounts").getFirstListItem(`organization = "${tenant.id}"`);
    throw new Error(`the restored organization's credentials are still refused (${refusal}); account active=${account.active} bus_confirmed=${account.bus_confirmed} status=${account.bus_status}`);
  };
  // PocketBase runs the reconciler at every minute's start, publishing every account (about 130 here)
  // one after the other; a repetition is not started within a few seconds of that tick, so that the
  // figures are the suspension's, not the suspension's queued behind the reconciler's publications.
  const clearOfReconciler = async () => {
    for (;;) {
      const second = new Date().getSeconds();
      if (second >= 6 && second < 55) return;
      await new Promise((r) => setTimeout(r, 500));
    }
  };
  /** Returns [ms until the update answered, ms until the last connection closed]. */
  const suspendOnce = async (n: number): Promise<[number, number]> => {
    const connections = await dialAll(n);
    await clearOfReconciler();
    const start = performance.now();
    const lastClosed = Promise.all(connections.map((nc) => nc.closed())).then(() => performance.now() - start);
    const answered = operator.collection("organizations").update(tenant.id, { active: false }).then(() => performance.now() - start);
    const deadline = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${n} connections not all closed within ${DISCONNECT_DEADLINE_MS} ms`)), DISCONNECT_DEADLINE_MS).unref());
    const [answeredMs, closedMs] = await Promise.race([Promise.all([answered, lastClosed]), deadline]);
    connections.forEach((nc) => open.delete(nc));
    await restore();
    return [answeredMs, closedMs];
  };

  await suspendOnce(10); // warm-up, untimed
  for (const n of CONNECTIONS) {
    const answered: number[] = [];
    const closed: number[] = [];
    for (let r = 0; r < REPETITIONS; r++) {
      const [a, c] = await suspendOnce(n);
      answered.push(a);
      closed.push(c);
    }
    report(`suspend organization, N=${n} connections: update sent -> last closed()`, closed);
    report(`suspend organization, N=${n} connections: update sent -> update answered`, answered);
  }
  console.log(`suspension restores: ${brokenPipes} EPIPE/ECONNRESET from refused connects`);
} finally {
  await Promise.all([...open].map((nc) => nc.close().catch(() => undefined)));
  await bus.stop();
}

async function signIn(email: string): Promise<PocketBase> {
  const pb = client(bus.platform.url);
  await pb.collection("users").authWithPassword(email, PASSWORD);
  return pb;
}
