// A platform whose bus is a hub of three nodes from `bus export --nodes 3`, all on 127.0.0.1 with every
// port stepped by the node's index, and bus.server_url naming every node (and, asked, bus.websocket_urls
// every node's websocket listener). For e2e/bus/cluster.test.ts, e2e/console/cluster-live.test.ts and
// bench/bus-cluster.bench.ts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventually } from "./bus";
import { startNatsServer, type NatsServer } from "./nats";
import { startPlatform, type Platform, type PlatformOptions } from "./platform";
import { freePort, freePortRuns, freePorts } from "./ports";

export const NODES = 3;
/** The name of the control plane's own bus connection (sidecar/nats.ts). */
export const SIDECAR = "platform-sidecar";

export interface ClusterPorts {
  client: number;
  websocket: number;
  leafnode: number;
  monitor: number;
  cluster: number;
}

export interface PlatformWithClusterOptions extends PlatformOptions {
  /** Serve every node's websocket listener as bus.websocket_urls (GET /api/client-config), as a browser dials them. */
  advertiseWebsocket?: boolean;
  /**
   * Each node on a loopback address of its own (127.0.0.1, 127.0.0.2, 127.0.0.3) with the same ports, as
   * nodes on separate machines have them (`--node-hosts`); by default all on 127.0.0.1, ports stepped.
   */
  addressPerNode?: boolean;
  /** bus.leaf_url: this host name at the nodes' leafnode port (with addressPerNode, one port for every node). */
  leafHostName?: string;
}

export interface PlatformWithCluster {
  platform: Platform;
  /** The first node's ports; node i's are these plus i, or the same with addressPerNode. */
  first: ClusterPorts;
  /** The folder `bus export` wrote: node-1/, node-2/, node-3/. */
  out: string;
  /** The node's address: 127.0.0.1, or 127.0.0.<index + 1> with addressPerNode. */
  host(index: number): string;
  nodeUrl(index: number): string;
  /** The node's websocket listener, as a browser dials it. */
  websocketUrl(index: number): string;
  monitor<T>(index: number, path: string): Promise<T>;
  /** Whether the node has its routes to every other node. */
  routesUp(index: number): Promise<boolean>;
  /** The node's server while it runs. */
  node(index: number): NatsServer;
  startNode(index: number): Promise<NatsServer>;
  /** SIGKILL: the node keeps its data directories as they were. */
  killNode(index: number): Promise<void>;
  /** The index of the running node holding a client connection of that name (the sidecar's: SIDECAR). */
  nodeHolding(connectionName: string): Promise<number>;
  stop(): Promise<void>;
}

export async function startPlatformWithCluster(options: PlatformWithClusterOptions = {}): Promise<PlatformWithCluster> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startClusterOnce(options);
    } catch (err) {
      // Ports found free a moment ago can be taken by another test's process before a node binds them
      // (seen once in CI: a node's websocket port); everything was stopped, so start over on new ones.
      if (attempt >= 3 || !String(err).includes("address already in use")) throw err;
    }
  }
}

async function startClusterOnce(options: PlatformWithClusterOptions): Promise<PlatformWithCluster> {
  const { advertiseWebsocket, addressPerNode, leafHostName, ...platformOptions } = options;
  // Nodes of their own addresses take the same ports: nothing else binds 127.0.0.2 or 127.0.0.3.
  const [client, websocket, leafnode, monitorPort, cluster] = addressPerNode ? await freePorts(5) : await freePortRuns(5, NODES);
  const first: ClusterPorts = { client, websocket, leafnode, monitor: monitorPort, cluster };
  const host = (index: number) => (addressPerNode ? `127.0.0.${index + 1}` : "127.0.0.1");
  const at = (port: number, index: number) => `${host(index)}:${addressPerNode ? port : port + index}`;
  const nodeUrl = (index: number) => `nats://${at(client, index)}`;
  const websocketUrl = (index: number) => `ws://${at(websocket, index)}`;
  const everyNode = Array.from({ length: NODES }, (_, index) => nodeUrl(index)).join(" ");
  const advertised: Record<string, string> = advertiseWebsocket ? { PLATFORM_BUS_WEBSOCKET_URLS: Array.from({ length: NODES }, (_, index) => websocketUrl(index)).join(" ") } : {};
  if (leafHostName) advertised.PLATFORM_BUS_LEAF_URL = `nats-leaf://${leafHostName}:${leafnode}`;
  const platform = await startPlatform({ port: await freePort(), ...platformOptions, env: { PLATFORM_BUS_SERVER_URL: everyNode, ...advertised, ...platformOptions.env } });
  const out = mkdtempSync(join(tmpdir(), "platform-cluster-"));
  const servers: (NatsServer | undefined)[] = [];
  const stopAll = async () => {
    await Promise.all(servers.map((s) => s?.stop()));
    await platform.stop();
    rmSync(out, { recursive: true, force: true });
  };
  const monitor = async <T>(index: number, path: string): Promise<T> => (await (await fetch(`http://${at(monitorPort, index)}${path}`)).json()) as T;
  const routesUp = async (index: number) => {
    try {
      return (await monitor<{ num_routes: number }>(index, "/routez")).num_routes >= NODES - 1;
    } catch {
      return false;
    }
  };
  const startNode = async (index: number) => (servers[index] = await startNatsServer({ configDir: join(out, `node-${index + 1}`) }));
  try {
    const exported = await platform.command([
      "bus", "export", "--out", out, "--nodes", String(NODES),
      "--port", String(client), "--websocket-port", String(websocket), "--leafnode-port", String(leafnode),
      "--monitor-port", String(monitorPort), "--cluster-port", String(cluster),
      ...(addressPerNode ? ["--node-hosts", Array.from({ length: NODES }, (_, index) => host(index)).join(",")] : []),
    ]);
    if (exported.code !== 0) throw new Error(`bus export failed: ${exported.stdout}${exported.stderr}`);
    for (let index = 0; index < NODES; index++) await startNode(index);
    for (let index = 0; index < NODES; index++) {
      if (!(await eventually(() => routesUp(index), 20_000))) throw new Error(`node ${index + 1} has no routes to the others`);
    }
  } catch (err) {
    await stopAll();
    throw err;
  }
  return {
    platform,
    first,
    out,
    host,
    nodeUrl,
    websocketUrl,
    monitor,
    routesUp,
    node: (index) => {
      const server = servers[index];
      if (!server) throw new Error(`node ${index + 1} is stopped`);
      return server;
    },
    startNode,
    killNode: async (index) => {
      const server = servers[index];
      if (!server) return;
      process.kill(server.pid, "SIGKILL");
      await server.stop();
      servers[index] = undefined;
    },
    nodeHolding: async (connectionName) => {
      for (let index = 0; index < NODES; index++) {
        if (!servers[index]) continue;
        const connz = await monitor<{ connections?: { name?: string }[] }>(index, "/connz?auth=true&limit=1024");
        if ((connz.connections ?? []).some((c) => c.name === connectionName)) return index;
      }
      throw new Error(`no node holds a connection named ${connectionName}`);
    },
    stop: stopAll,
  };
}

/**
 * Writes `<dir>/hosts`: this machine's /etc/hosts plus `name` with the address of every node, what a DNS
 * name with a record per node serves (for an agent's hostsFile, e2e/harness/agent.ts). Returns its path.
 */
export function hostsFileNamingEveryNode(hub: PlatformWithCluster, name: string, dir: string): string {
  const path = join(dir, "hosts");
  const records = Array.from({ length: NODES }, (_, index) => `${hub.host(index)} ${name}`).join("\n");
  writeFileSync(path, `${readFileSync("/etc/hosts", "utf8")}\n${records}\n`);
  return path;
}

/** The running node whose /leafz lists a leaf of that name (a gateway's code); undefined while none does. */
export async function nodeOfLeaf(hub: PlatformWithCluster, leafName: string): Promise<number | undefined> {
  for (let index = 0; index < NODES; index++) {
    const leafz = await hub.monitor<{ leafs?: { name: string }[] }>(index, "/leafz").catch(() => undefined);
    if (leafz?.leafs?.some((leaf) => leaf.name === leafName)) return index;
  }
  return undefined;
}
