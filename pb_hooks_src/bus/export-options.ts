// What `bus export` writes, from its flags, the platform configuration and the operator row (pure): one
// server, or the nodes of a cluster, each in a folder of its own.
import type { ServerConfigInput } from "./server-config";
import { ServerConfigError } from "./server-config";
import { serverUrlPort } from "./server-port";

/** The folder `bus export` fills; paths in the config are relative to it, so it can move as a whole. */
export const EXPORT_LAYOUT = { config: "bus.conf", resolverDir: "resolver", jetstreamDir: "jetstream" } as const;

export const EXPORT_DEFAULTS = {
  websocketPort: 9222,
  leafnodePort: 7422,
  monitorPort: 8222,
  clusterPort: 6222,
  host: "127.0.0.1",
  monitorHost: "127.0.0.1",
} as const;

/** Node i of a cluster lives in `<out>/node-<i>/`, laid out as a single server's folder. */
export const nodeFolder = (index: number): string => `node-${index}`;

/** The most nodes an export writes: a hub is 3 or 5 nodes; more only adds route traffic. */
export const MAX_NODES = 9;

/** The command's flags as typed; empty means "use the default". */
export interface ExportFlags {
  /** The folder to write; required. */
  out: string;
  port: string;
  websocketPort: string;
  leafnodePort: string;
  monitorPort: string;
  host: string;
  monitorHost: string;
  domain: string;
  serverName: string;
  /** How many hub nodes: 1, or an odd number from 3. */
  nodes: string;
  clusterPort: string;
  /** The address of each node, comma-separated; empty: every node on --host, its ports stepped. */
  nodeHosts: string;
}

/** One server to write: its folder under --out ("" for a single server) and its config. */
export interface ExportedNode {
  folder: string;
  input: ServerConfigInput;
}

/** The public parts of the bus_system_operator row; seeds and the system user's creds are never read. */
export interface OperatorRow {
  operatorJwt: string;
  systemAccountPub: string;
  systemAccountJwt: string;
}

export function exportInput(flags: ExportFlags, config: { serverUrl: string; persistDomain: string }, operator: OperatorRow): ServerConfigInput {
  const domain = flags.domain || config.persistDomain;
  return {
    serverName: flags.serverName || `bus-${domain}`,
    host: flags.host || EXPORT_DEFAULTS.host,
    port: flags.port ? portFlag("--port", flags.port) : serverUrlPort(config.serverUrl),
    websocketPort: flags.websocketPort ? portFlag("--websocket-port", flags.websocketPort) : EXPORT_DEFAULTS.websocketPort,
    leafnodePort: flags.leafnodePort ? portFlag("--leafnode-port", flags.leafnodePort) : EXPORT_DEFAULTS.leafnodePort,
    monitorHost: flags.monitorHost || EXPORT_DEFAULTS.monitorHost,
    monitorPort: flags.monitorPort ? portFlag("--monitor-port", flags.monitorPort) : EXPORT_DEFAULTS.monitorPort,
    operatorJwt: operator.operatorJwt,
    systemAccountPub: operator.systemAccountPub,
    systemAccountJwt: operator.systemAccountJwt,
    resolverDir: EXPORT_LAYOUT.resolverDir,
    jetstreamDir: EXPORT_LAYOUT.jetstreamDir,
    domain,
  };
}

/**
 * The servers an export writes. A cluster's nodes share the operator, the domain and the cluster name;
 * node i is `<server name>-<i>`. Nodes given one address each keep the same ports; nodes sharing an
 * address (the default: all on --host) step every port by their index, so a cluster runs on one machine.
 */
export function exportNodes(flags: ExportFlags, config: { serverUrl: string; persistDomain: string }, operator: OperatorRow): ExportedNode[] {
  const base = exportInput(flags, config, operator);
  const count = nodeCount(flags.nodes);
  if (count === 1) {
    const clusterOnly = [["--node-hosts", flags.nodeHosts], ["--cluster-port", flags.clusterPort]].filter(([, value]) => value.trim() !== "").map(([name]) => name);
    if (clusterOnly.length > 0) throw new ServerConfigError(`${clusterOnly.join(" and ")} describe a cluster: add --nodes 3 (or another odd number), or leave them out`);
    return [{ folder: "", input: base }];
  }
  const hosts = nodeHosts(flags.nodeHosts, count, base.host);
  const clusterPort = flags.clusterPort ? portFlag("--cluster-port", flags.clusterPort) : EXPORT_DEFAULTS.clusterPort;
  const shared = new Set(hosts).size < count;
  const step = (port: number, index: number) => (shared ? port + index : port);
  const clusterAddress = (index: number) => `${routeHost(hosts[index])}:${step(clusterPort, index)}`;
  const nodes = hosts.map((host, index) => ({
    folder: nodeFolder(index + 1),
    input: {
      ...base,
      serverName: `${base.serverName}-${index + 1}`,
      host,
      port: step(base.port, index),
      websocketPort: step(base.websocketPort, index),
      leafnodePort: step(base.leafnodePort, index),
      monitorPort: step(base.monitorPort, index),
      monitorHost: flags.monitorHost || monitorHostOf(host),
      cluster: {
        name: base.serverName,
        host,
        port: step(clusterPort, index),
        routes: hosts.map((_, other) => other).filter((other) => other !== index).map(clusterAddress),
      },
    },
  }));
  refuseSharedPorts(nodes.map((n) => n.input));
  return nodes;
}

function nodeCount(text: string): number {
  if (text === "") return 1;
  const count = /^\d{1,2}$/.test(text) ? Number(text) : NaN;
  if (count === 2) {
    throw new ServerConfigError("--nodes 2 is refused: two nodes have no majority, so JetStream cannot keep 3 replicas and one node's loss stops the cluster; run 1, or 3 or more (an odd number)");
  }
  if (!(count === 1 || (count >= 3 && count <= MAX_NODES && count % 2 === 1))) {
    throw new ServerConfigError(`--nodes ${JSON.stringify(text)} must be 1 or an odd number from 3 to ${MAX_NODES}: a cluster needs a majority of its nodes up`);
  }
  return count;
}

function nodeHosts(text: string, count: number, host: string): string[] {
  if (text.trim() === "") return Array.from({ length: count }, () => host);
  const hosts = text.split(",").map((h) => h.trim());
  if (hosts.length !== count || hosts.some((h) => h === "")) {
    throw new ServerConfigError(`--node-hosts names ${hosts.filter((h) => h !== "").length} addresses for ${count} nodes: give one per node, comma-separated`);
  }
  return hosts;
}

/**
 * Monitoring stays on loopback: a node's own address when that is a loopback one (nodes on 127.0.0.1,
 * 127.0.0.2, ... of one machine, each with the same ports), else 127.0.0.1 of the node's machine.
 */
function monitorHostOf(nodeHost: string): string {
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(nodeHost) || nodeHost === "::1" ? nodeHost : EXPORT_DEFAULTS.monitorHost;
}

/** An IPv6 literal in a route URL is bracketed. */
function routeHost(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}

/** Two listeners of any nodes on one address and port: the second node could not start. */
function refuseSharedPorts(inputs: ServerConfigInput[]): void {
  const taken = new Map<string, string>();
  for (const input of inputs) {
    const listeners: [string, string, number][] = [
      ["client", input.host, input.port],
      ["websocket", input.host, input.websocketPort],
      ["leafnode", input.host, input.leafnodePort],
      ["cluster", input.host, input.cluster?.port ?? 0],
      ["monitor", input.monitorHost, input.monitorPort],
    ];
    for (const [name, host, port] of listeners) {
      // Monitoring binds its own host: with --node-hosts the nodes are separate machines, each its own loopback.
      const key = `${name === "monitor" ? `${input.host}/` : ""}${host}:${port}`;
      const other = taken.get(key);
      if (other) throw new ServerConfigError(`${input.serverName}'s ${name} port ${port} on ${host} is also ${other}: choose ports further apart`);
      taken.set(key, `${input.serverName}'s ${name} port`);
    }
  }
}

function portFlag(name: string, value: string): number {
  const port = /^\d{1,5}$/.test(value) ? Number(value) : NaN;
  if (!(port >= 1 && port <= 65535)) throw new ServerConfigError(`${name} ${JSON.stringify(value)} must be a port between 1 and 65535`);
  return port;
}
