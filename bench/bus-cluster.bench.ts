// The hub as three nodes (issue 34 item 6): how long a revocation takes to close 1,000 clients of one bus
// user spread over the three nodes, and how long a claim takes to be confirmed by every node up, with three
// nodes and with two of three. Figures are printed, never asserted.
//
// A claim is published and confirmed inside the write that changes it, so a bus user's suspension
// (PATCH active=false, which pushes the account's claim) times the confirmation as a caller sees it.
import type { NatsConnection } from "@nats-io/transport-node";
import { connectWithCreds } from "../e2e/harness/bus";
import { NODES, SIDECAR, startPlatformWithCluster } from "../e2e/harness/cluster";
import { PASSWORD, client, createMember, unique } from "../e2e/harness/world";
import { measure, report } from "./stats";

const CLIENTS = Number(process.env.BENCH_CLUSTER_CLIENTS ?? 1_000);
const ROUNDS = Number(process.env.BENCH_CLUSTER_ROUNDS ?? 3);
const CLAIM_SAMPLES = 40;
const CLAIM_WARMUP = 5;
const CLOSE_DEADLINE_MS = 20_000;

// A connect the server refuses can surface from @nats-io/transport-node 3.4 as an uncaught EPIPE.
process.on("uncaughtException", (err: NodeJS.ErrnoException) => {
  if (err.code === "EPIPE" || err.code === "ECONNRESET") return;
  console.error(err);
  process.exit(1);
});

const hub = await startPlatformWithCluster({ env: { PLATFORM_BUS_DEFAULT_LIMITS_MAX_CONNECTIONS: "-1" } });
try {
  const su = await hub.platform.superuser();
  const org = await su.collection("organizations").create({ name: "Bench cluster", code: unique("bench-cluster"), active: true });
  const owner = client(hub.platform.url);
  await owner.collection("users").authWithPassword((await createMember(su, org.id, "owner")).email as string, PASSWORD);

  // 1. Revocation fan-out: every client of one user, a third on each node, closed by one suspension.
  const closeMs: number[] = [];
  const revokeMs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const user = await owner.collection("bus_users").create({ organization: org.id, name: unique("fanout") });
    const clients: NatsConnection[] = [];
    for (let i = 0; i < CLIENTS; i++) clients.push(await connectWithCreds(hub.nodeUrl(i % NODES), user.creds_file as string));
    const started = performance.now();
    const closed = clients.map((nc) =>
      Promise.race([nc.closed().then(() => performance.now() - started), new Promise<number>((resolve) => setTimeout(() => resolve(Number.NaN), CLOSE_DEADLINE_MS))]),
    );
    await owner.collection("bus_users").update(user.id, { active: false });
    revokeMs.push(performance.now() - started);
    const times = await Promise.all(closed);
    const missed = times.filter((t) => Number.isNaN(t)).length;
    if (missed > 0) console.log(`round ${round + 1}: ${missed} of ${CLIENTS} clients still open after ${CLOSE_DEADLINE_MS} ms`);
    closeMs.push(...times.filter((t) => !Number.isNaN(t)));
    await Promise.all(clients.map((nc) => nc.close().catch(() => undefined)));
  }
  report(`revocation fan-out: ${CLIENTS} clients of one user over ${NODES} nodes, time to each client's close from the PATCH (${ROUNDS} rounds)`, closeMs, [50, 95, 99]);
  report("revocation fan-out: the PATCH itself (claim pushed and confirmed by every node)", revokeMs, [50, 95, 99]);

  // 2. Claim confirmation as a caller sees it: a suspension and a reactivation alternate on one user.
  const toggled = await owner.collection("bus_users").create({ organization: org.id, name: unique("toggle") });
  const toggle = (i: number) => owner.collection("bus_users").update(toggled.id, { active: i % 2 === 1 });
  report(`claim confirmed by ${NODES} of ${NODES} nodes (PATCH bus_users.active)`, await measure(CLAIM_SAMPLES, CLAIM_WARMUP, toggle), [50, 95, 99]);
  // The node the control plane is connected to dies: the first call after it also reconnects.
  await hub.killNode(await hub.nodeHolding(SIDECAR));
  report(`claim confirmed by ${NODES - 1} of ${NODES} nodes, the control plane's node killed (PATCH bus_users.active)`, await measure(CLAIM_SAMPLES, CLAIM_WARMUP, toggle), [50, 95, 99]);
  const status = (await su.collection("bus_accounts").getFirstListItem(`organization = "${org.id}"`)).bus_status;
  console.log(`bus_status with one node down: ${status}`);
} finally {
  await hub.stop();
}
