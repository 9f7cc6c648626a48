// Organization suspension (spec 3.2, organizations.active) against both kinds of bus connection at once:
// plain TCP clients (devices, services) and websocket clients (browsers) on the hub's websocket port. A
// Platform Operator's write withdraws the account, which must disconnect every connection of the tenant
// of either kind and leave another tenant's alone; restoring re-admits the same creds files on both.
import type { NatsConnection } from "@nats-io/transport-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closedWithin, connectWithCreds, eventually, startPlatformWithBus, wsConnectWithCreds, type PlatformWithBus } from "../harness/bus";
import { buildWorld, unique, type World } from "../harness/world";

const TCP_CLIENTS = 40;
const WS_CLIENTS = 10;

let bus: PlatformWithBus;
let w: World;
let wsUrl: string;
const open: NatsConnection[] = [];

beforeAll(async () => {
  bus = await startPlatformWithBus();
  w = await buildWorld(bus.platform);
  wsUrl = `ws://127.0.0.1:${bus.ports.websocket}`;
}, 120_000);
afterAll(async () => {
  await Promise.all(open.map((nc) => nc.close().catch(() => undefined)));
  await bus?.stop();
});

type Kind = "tcp" | "ws";

async function dial(kind: Kind, creds: string): Promise<NatsConnection> {
  const nc = kind === "tcp" ? await connectWithCreds(bus.busUrl, creds) : await wsConnectWithCreds(wsUrl, creds);
  open.push(nc);
  return nc;
}

/** Whether the server refuses the creds over `kind` now. */
async function refused(kind: Kind, creds: string): Promise<boolean> {
  try {
    const nc = kind === "tcp" ? await connectWithCreds(bus.busUrl, creds) : await wsConnectWithCreds(wsUrl, creds);
    await nc.flush();
    await nc.close();
    return false;
  } catch {
    return true;
  }
}

/** The hub's client connections per account, counted by kind (`nats` for TCP, `websocket`), from /connz. */
async function connectionKinds(): Promise<Record<string, Record<string, number>>> {
  const connz = (await (await fetch(`http://127.0.0.1:${bus.ports.monitor}/connz?limit=10000&auth=true`)).json()) as { connections: { account?: string; type?: string }[] };
  const kinds: Record<string, Record<string, number>> = {};
  for (const c of connz.connections) {
    const perAccount = (kinds[c.account ?? ""] ??= {});
    perAccount[c.type ?? "?"] = (perAccount[c.type ?? "?"] ?? 0) + 1;
  }
  return kinds;
}

/** A message from `from` reaches `to` (both alive and in one account). */
async function roundTrip(from: NatsConnection, to: NatsConnection): Promise<boolean> {
  const subject = unique("check").replaceAll("-", "_");
  const sub = to.subscribe(subject, { max: 1 });
  await to.flush();
  from.publish(subject, "ping");
  await from.flush();
  const timer = setTimeout(() => sub.unsubscribe(), 2_000);
  for await (const msg of sub) {
    clearTimeout(timer);
    return msg.string() === "ping";
  }
  return false;
}

describe("suspending an organization", () => {
  it(`disconnects all ${TCP_CLIENTS} TCP and ${WS_CLIENTS} websocket connections of the tenant, none of another tenant's; restoring re-admits the same creds on both`, async () => {
    const org = await w.su.collection("organizations").create({ name: "Suspendable", code: unique("susp"), active: true });
    const users = [
      await w.su.collection("bus_users").create({ organization: org.id, name: unique("device") }),
      await w.su.collection("bus_users").create({ organization: org.id, name: unique("browser") }),
    ];
    const creds = users.map((u) => u.creds_file as string);
    const tcp = await Promise.all(Array.from({ length: TCP_CLIENTS }, (_, i) => dial("tcp", creds[i % 2])));
    const ws = await Promise.all(Array.from({ length: WS_CLIENTS }, (_, i) => dial("ws", creds[i % 2])));
    const tenant = [...tcp, ...ws];
    expect(await roundTrip(tcp[0], ws[0])).toBe(true);
    expect(await roundTrip(ws[1], tcp[1])).toBe(true);

    // Another tenant, both kinds.
    const other = await w.su.collection("bus_users").create({ organization: w.b.organization.id, name: unique("bystander") });
    const bystanders = { tcp: await dial("tcp", other.creds_file), ws: await dial("ws", other.creds_file) };
    const accountOf = async (organization: string) => (await w.su.collection("bus_accounts").getFirstListItem(`organization = "${organization}"`)).public_key as string;
    const [suspendedAccount, otherAccount] = [await accountOf(org.id), await accountOf(w.b.organization.id)];
    // The hub sees them as what they are: TCP (`nats`) and websocket clients.
    const before = await connectionKinds();
    expect(before[suspendedAccount]).toEqual({ nats: TCP_CLIENTS, websocket: WS_CLIENTS });
    expect(before[otherAccount]).toEqual({ nats: 1, websocket: 1 });

    const operator = await w.client("operator");
    // Each connection's closing time, or undefined if it is still open after a generous bound.
    const closings = tenant.map((nc) => closedWithin(nc, 20_000).then((closed) => (closed ? Date.now() : undefined)));
    const suspendedAt = Date.now();
    await operator.collection("organizations").update(org.id, { active: false });
    const answeredAt = Date.now();
    const closedAt = await Promise.all(closings);
    expect(closedAt.slice(0, TCP_CLIENTS).filter((t) => t !== undefined), "TCP connections closed").toHaveLength(TCP_CLIENTS);
    expect(closedAt.slice(TCP_CLIENTS).filter((t) => t !== undefined), "websocket connections closed").toHaveLength(WS_CLIENTS);
    const last = Math.max(...(closedAt as number[]));
    console.log(
      `organization suspension: ${tenant.length} connections (${TCP_CLIENTS} TCP + ${WS_CLIENTS} websocket) ` +
        `all disconnected ${last - suspendedAt} ms after the write was sent (write answered after ${answeredAt - suspendedAt} ms)`,
    );

    // The other tenant's connections of both kinds are untouched and still carry messages.
    const after = await connectionKinds();
    expect(after[suspendedAccount]).toBeUndefined();
    expect(after[otherAccount]).toEqual({ nats: 1, websocket: 1 });
    expect(bystanders.tcp.isClosed()).toBe(false);
    expect(bystanders.ws.isClosed()).toBe(false);
    expect(await roundTrip(bystanders.tcp, bystanders.ws)).toBe(true);
    expect(await roundTrip(bystanders.ws, bystanders.tcp)).toBe(true);

    // While suspended neither kind gets in with the tenant's creds; the records are otherwise unchanged.
    for (const kind of ["tcp", "ws"] as const) expect(await refused(kind, creds[0]), `${kind} refused while suspended`).toBe(true);
    expect(await w.su.collection("bus_accounts").getFirstListItem(`organization = "${org.id}"`)).toMatchObject({ active: false, bus_confirmed: true });
    expect((await w.su.collection("bus_users").getOne(users[1].id)).creds_file).toBe(creds[1]);

    // Restoring re-admits the very same creds files over both kinds.
    await operator.collection("organizations").update(org.id, { active: true });
    for (const kind of ["tcp", "ws"] as const) {
      for (const file of creds) expect(await eventually(async () => !(await refused(kind, file)), 10_000), `${kind} re-admitted`).toBe(true);
    }
    const again = { tcp: await dial("tcp", creds[0]), ws: await dial("ws", creds[1]) };
    expect(await roundTrip(again.tcp, again.ws)).toBe(true);
    expect(await roundTrip(again.ws, again.tcp)).toBe(true);
    expect(bystanders.tcp.isClosed() || bystanders.ws.isClosed()).toBe(false);
  });
});
