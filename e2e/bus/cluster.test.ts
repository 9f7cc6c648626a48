// A 3-node hub from `bus export --nodes 3` (issue 34 item 1) on the pinned nats-server: every node runs its
// config as written, the nodes route to each other with JetStream clustered in the platform's domain, a
// revocation pushed through the node the control plane dials reaches clients on the other nodes, and a node
// that was down while a user was revoked and an organization suspended refuses both once it is back,
// within its resolver's 2 s sync rather than the minute of nats-server's default.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { NatsConnection } from "@nats-io/transport-node";
import type { RecordModel } from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { busAccepts, closedWithin, connectWithCreds, eventually } from "../harness/bus";
import { startNatsServer, type NatsServer } from "../harness/nats";
import { startPlatform, type Platform } from "../harness/platform";
import { freePort, freePortRuns } from "../harness/ports";
import { buildWorld, unique, type World } from "../harness/world";

const NODES = 3;
let platform: Platform;
let w: World;
let out: string;
let first: { client: number; websocket: number; leafnode: number; monitor: number; cluster: number };
const servers: (NatsServer | undefined)[] = [];
const open: NatsConnection[] = [];

const nodeUrl = (index: number) => `nats://127.0.0.1:${first.client + index}`;
const monitorUrl = (index: number) => `http://127.0.0.1:${first.monitor + index}`;
const startNode = async (index: number) => (servers[index] = await startNatsServer({ configDir: join(out, `node-${index + 1}`) }));

async function monitor<T>(index: number, path: string): Promise<T> {
  return (await (await fetch(`${monitorUrl(index)}${path}`)).json()) as T;
}

async function routesUp(index: number): Promise<boolean> {
  try {
    return (await monitor<{ num_routes: number }>(index, "/routez")).num_routes >= NODES - 1;
  } catch {
    return false;
  }
}

async function dial(index: number, creds: string): Promise<NatsConnection> {
  const nc = await connectWithCreds(nodeUrl(index), creds);
  open.push(nc);
  return nc;
}

async function busUser(organization: string): Promise<RecordModel> {
  return w.su.collection("bus_users").create({ organization, name: unique("u") });
}

beforeAll(async () => {
  const [client, websocket, leafnode, monitorPort, cluster] = await freePortRuns(5, NODES);
  first = { client, websocket, leafnode, monitor: monitorPort, cluster };
  platform = await startPlatform({ port: await freePort(), env: { PLATFORM_BUS_SERVER_URL: nodeUrl(0) } });
  out = mkdtempSync(join(tmpdir(), "platform-cluster-"));
  const exported = await platform.command([
    "bus", "export", "--out", out, "--nodes", String(NODES),
    "--port", String(client), "--websocket-port", String(websocket), "--leafnode-port", String(leafnode),
    "--monitor-port", String(monitorPort), "--cluster-port", String(cluster),
  ]);
  if (exported.code !== 0) throw new Error(`bus export failed: ${exported.stdout}${exported.stderr}`);
  for (let index = 0; index < NODES; index++) await startNode(index);
  for (let index = 0; index < NODES; index++) {
    if (!(await eventually(() => routesUp(index), 20_000))) throw new Error(`node ${index + 1} has no routes to the others`);
  }
  w = await buildWorld(platform);
}, 180_000);

afterAll(async () => {
  await Promise.all(open.map((nc) => nc.close().catch(() => undefined)));
  await Promise.all(servers.map((s) => s?.stop()));
  await platform?.stop();
  if (out) rmSync(out, { recursive: true, force: true });
});

describe("bus export --nodes 3", () => {
  it("writes a folder per node, each a config nats-server runs as is, and says how to run each", async () => {
    for (let index = 1; index <= NODES; index++) {
      const folder = join(out, `node-${index}`);
      for (const entry of ["bus.conf", "resolver", "jetstream"]) expect(existsSync(join(folder, entry)), `node-${index}/${entry}`).toBe(true);
      const text = readFileSync(join(folder, "bus.conf"), "utf8");
      expect(text).toContain(`server_name: "bus-hub-${index}"`);
      expect(text).toContain('interval: "2s"');
      expect(text).not.toMatch(/SU[A-Z2-7]{56}|-----BEGIN/);
    }
    expect(existsSync(join(out, "bus.conf"))).toBe(false);
  });

  it("routes every node to the two others, with JetStream clustered in the platform's domain", async () => {
    const names = new Set<string>();
    for (let index = 0; index < NODES; index++) {
      const varz = await monitor<{ server_name: string; cluster: { name: string } }>(index, "/varz");
      names.add(varz.server_name);
      expect(varz.cluster.name).toBe("bus-hub");
    }
    expect(names).toEqual(new Set(["bus-hub-1", "bus-hub-2", "bus-hub-3"]));
    const clustered = await eventually(async () => {
      const jsz = await monitor<{ config?: { domain?: string }; meta_cluster?: { leader?: string; cluster_size?: number } }>(0, "/jsz");
      return jsz.config?.domain === "hub" && jsz.meta_cluster?.cluster_size === NODES && (jsz.meta_cluster.leader ?? "") !== "";
    }, 20_000);
    expect(clustered).toBe(true);
  });

  it("admits a tenant's credential on every node, and a revocation through node 1 closes clients on the others", async () => {
    const user = await busUser(w.a.organization.id);
    for (let index = 0; index < NODES; index++) expect(await eventually(() => busAccepts(nodeUrl(index), user.creds_file), 5_000), `node ${index + 1}`).toBe(true);
    const onTwo = await dial(1, user.creds_file);
    const onThree = await dial(2, user.creds_file);
    const owner = await w.client("owner");
    await owner.collection("bus_users").update(user.id, { active: false });
    expect(await closedWithin(onTwo, 2_000)).toBe(true);
    expect(await closedWithin(onThree, 2_000)).toBe(true);
    for (let index = 0; index < NODES; index++) expect(await busAccepts(nodeUrl(index), user.creds_file), `node ${index + 1}`).toBe(false);
  });

  it("a node down during a revocation and a suspension refuses both within 3 s of coming back", async () => {
    const revoked = await busUser(w.a.organization.id);
    const suspendedOrg = await w.su.collection("organizations").create({ name: "Suspended while away", code: unique("away"), active: true });
    const ofSuspended = await busUser(suspendedOrg.id);
    for (const creds of [revoked.creds_file, ofSuspended.creds_file]) expect(await eventually(() => busAccepts(nodeUrl(2), creds), 5_000)).toBe(true);

    // SIGKILL: the node keeps its resolver directory as it was, with both claims still in force.
    process.kill(servers[2]!.pid, "SIGKILL");
    await servers[2]!.stop();
    const owner = await w.client("owner");
    await owner.collection("bus_users").update(revoked.id, { active: false });
    await w.su.collection("organizations").update(suspendedOrg.id, { active: false });
    expect(await busAccepts(nodeUrl(0), revoked.creds_file)).toBe(false);
    expect(await busAccepts(nodeUrl(0), ofSuspended.creds_file)).toBe(false);

    await startNode(2);
    const back = Date.now();
    const refusedBoth = await eventually(async () => !(await busAccepts(nodeUrl(2), revoked.creds_file)) && !(await busAccepts(nodeUrl(2), ofSuspended.creds_file)), 3_000);
    expect(refusedBoth, `still admitted ${Date.now() - back} ms after the restart`).toBe(true);
    expect(await eventually(() => routesUp(2), 10_000)).toBe(true);
  });

  it("a node replaced on an empty disk learns every account from the others and refuses what was revoked", async () => {
    const kept = await busUser(w.a.organization.id);
    const revoked = await busUser(w.a.organization.id);
    await (await w.client("owner")).collection("bus_users").update(revoked.id, { active: false });
    await servers[1]!.stop();
    // The replacement: the node's exported folder with empty data directories, as a new machine has it.
    for (const dir of ["resolver", "jetstream"]) {
      rmSync(join(out, "node-2", dir), { recursive: true, force: true });
      mkdirSync(join(out, "node-2", dir), { mode: 0o700 });
    }
    await startNode(1);
    expect(await eventually(() => busAccepts(nodeUrl(1), kept.creds_file), 3_000)).toBe(true);
    expect(await busAccepts(nodeUrl(1), revoked.creds_file)).toBe(false);
    expect(await eventually(() => routesUp(1), 10_000)).toBe(true);
  });
});
