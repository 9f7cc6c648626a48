// The hub's nats-server configuration (pure): operator mode with a full account resolver, persistence,
// browser (websocket) and edge (leafnode) listeners, monitoring, and for a node of a cluster its routes to
// the other nodes. docs/bus-server.md explains each block. Every value is either validated to a narrow shape or written as an escaped string, so no input
// can end a string, open a block or add a key.

export interface ServerConfigInput {
  serverName: string;
  /** Client, websocket and leafnode listeners bind here. */
  host: string;
  port: number;
  websocketPort: number;
  leafnodePort: number;
  /** Monitoring has no authentication, so it binds separately (loopback by default). */
  monitorHost: string;
  monitorPort: number;
  operatorJwt: string;
  systemAccountPub: string;
  systemAccountJwt: string;
  /** Relative paths resolve against nats-server's working directory. */
  resolverDir: string;
  jetstreamDir: string;
  /** bus.persist_domain: the JetStream domain edge leaves address the hub by. */
  domain: string;
  /** Set for a node of a cluster of three or more; a single server has none. */
  cluster?: ClusterInput;
}

export interface ClusterInput {
  /** The cluster's name, the same on every node. */
  name: string;
  /** Where this node listens for the other nodes' routes. */
  host: string;
  port: number;
  /** host:port of every other node's cluster listener. */
  routes: string[];
}

/**
 * How often the full resolvers of a cluster compare their account JWTs. A node that was down while an
 * account was updated (a revocation, a suspension) keeps the old claim until it syncs: at 2 s the window
 * after its restart is ~2.2 s where the resolver's default of a minute left it open for 60 s.
 */
export const RESOLVER_SYNC_INTERVAL = "2s";

export class ServerConfigError extends Error {}

/** The JetStream totals of the hub (bytes): 1 PiB, beyond any sum of tenant caps a hub will carry. */
export const JETSTREAM_TOTAL = 1024 ** 5;

// nats-server refuses `.`, `*`, `>` and whitespace in a domain (a subject token); the platform keeps it
// to the characters an edge site's configuration can carry unquoted as well.
const DOMAIN = /^[A-Za-z0-9_-]{1,64}$/;
// nats-server refuses spaces in server_name; dots are useful in host-like names.
const SERVER_NAME = /^[A-Za-z0-9._-]{1,128}$/;
// Host names and IPv4/IPv6 literals (unbracketed).
const HOST = /^[A-Za-z0-9.:-]{1,253}$/;
// A route's host:port, an IPv6 literal bracketed.
const ROUTE = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]{1,253}):\d{1,5}$/;
const ACCOUNT_PUB = /^A[A-Z2-7]{55}$/;
// nats-server takes `operator: <value>` as a file name unless it starts with "eyJ" (a JSON header).
const JWT = /^eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

export function natsServerConfig(input: ServerConfigInput): string {
  validate(input);
  const s = quote;
  return [
    "# nats-server configuration of the platform's bus hub, written by `pocketbase bus export`.",
    "# Re-run the export to change it; docs/bus-server.md explains every block.",
    `server_name: ${s(input.serverName)}`,
    `host: ${s(input.host)}`,
    `port: ${input.port}`,
    `http: ${s(listenAddress(input.monitorHost, input.monitorPort))}`,
    "",
    "# Operator mode: only accounts signed by this operator exist. The system account carries the",
    "# control plane's client and the $SYS.REQ.CLAIMS.* requests that push and withdraw accounts.",
    `operator: ${s(input.operatorJwt)}`,
    `system_account: ${s(input.systemAccountPub)}`,
    "",
    "# Account JWTs live in dir: a withdrawn (deleted) account stays out across restarts.",
    "resolver {",
    `  type: full`,
    `  dir: ${s(input.resolverDir)}`,
    `  allow_delete: true`,
    `  interval: ${s(RESOLVER_SYNC_INTERVAL)}`,
    "}",
    "",
    "# The system account must exist before any account can be pushed.",
    "resolver_preload {",
    `  ${s(input.systemAccountPub)}: ${s(input.systemAccountJwt)}`,
    "}",
    "",
    "# Each tenant's persistence limits are caps (bus.default_limits), not reservations. A standalone",
    "# server enables JetStream for an account only while the sum of every account's caps fits these",
    "# totals, which default to 75 % of the free disk and of RAM: with 5 GiB caps, about ten tenants. So",
    "# the totals are set past any machine; what is actually stored is what the disk and RAM must hold.",
    "jetstream {",
    `  store_dir: ${s(input.jetstreamDir)}`,
    `  domain: ${s(input.domain)}`,
    `  max_file_store: ${JETSTREAM_TOTAL}`,
    `  max_memory_store: ${JETSTREAM_TOTAL}`,
    "}",
    "",
    "# Browsers. TLS is terminated in front of the server (an HTTPS page cannot open ws://).",
    "websocket {",
    `  host: ${s(input.host)}`,
    `  port: ${input.websocketPort}`,
    `  no_tls: true`,
    "}",
    "",
    "# Edge sites' leaf servers.",
    "leafnodes {",
    `  host: ${s(input.host)}`,
    `  port: ${input.leafnodePort}`,
    "}",
    "",
    ...(input.cluster ? clusterBlock(input.cluster) : []),
  ].join("\n");
}

function clusterBlock(cluster: ClusterInput): string[] {
  const s = quote;
  return [
    "# The other hub nodes. Routes carry every account's traffic unauthenticated: the cluster port must be",
    "# reachable from the other nodes only (a private network or a firewall), like monitoring.",
    "cluster {",
    `  name: ${s(cluster.name)}`,
    `  host: ${s(cluster.host)}`,
    `  port: ${cluster.port}`,
    "  routes: [",
    ...cluster.routes.map((route) => `    ${s(`nats-route://${route}`)}`),
    "  ]",
    "}",
    "",
  ];
}

/**
 * A double-quoted nats-server config string. Inside double quotes the lexer expands no `$variable` and
 * knows exactly these escapes: \\ \" \n \r \t \xXX.
 */
export function quote(value: string): string {
  const escaped = value.replace(/[\\"\x00-\x1f\x7f]/g, (c) => {
    switch (c) {
      case "\\":
        return "\\\\";
      case '"':
        return '\\"';
      case "\n":
        return "\\n";
      case "\r":
        return "\\r";
      case "\t":
        return "\\t";
      default:
        return `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`;
    }
  });
  return `"${escaped}"`;
}

function listenAddress(host: string, port: number): string {
  return host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
}

function validate(input: ServerConfigInput): void {
  const check = (ok: boolean, message: string) => {
    if (!ok) throw new ServerConfigError(message);
  };
  check(DOMAIN.test(input.domain), `domain ${JSON.stringify(input.domain)} must be 1-64 letters, digits, - or _ (bus.persist_domain)`);
  check(SERVER_NAME.test(input.serverName), `server name ${JSON.stringify(input.serverName)} must be 1-128 letters, digits, ., - or _`);
  check(HOST.test(input.host), `host ${JSON.stringify(input.host)} must be a host name or an IP address`);
  check(HOST.test(input.monitorHost), `monitor host ${JSON.stringify(input.monitorHost)} must be a host name or an IP address`);
  const ports: [string, number][] = [
    ["port", input.port],
    ["websocket port", input.websocketPort],
    ["leafnode port", input.leafnodePort],
    ["monitor port", input.monitorPort],
  ];
  for (const [name, port] of ports) check(Number.isInteger(port) && port >= 1 && port <= 65535, `${name} ${port} must be between 1 and 65535`);
  const seen = new Map<number, string>();
  for (const [name, port] of ports) {
    const other = seen.get(port);
    check(other === undefined, `${name} ${port} is also the ${other}`);
    seen.set(port, name);
  }
  check(JWT.test(input.operatorJwt), "the operator JWT is not a JWT");
  check(JWT.test(input.systemAccountJwt), "the system account JWT is not a JWT");
  check(ACCOUNT_PUB.test(input.systemAccountPub), "the system account public key is not an account public key");
  check(input.resolverDir !== "" && input.jetstreamDir !== "", "the resolver and jetstream directories must be named");
  if (input.cluster) {
    const { name, host, port, routes } = input.cluster;
    check(SERVER_NAME.test(name), `cluster name ${JSON.stringify(name)} must be 1-128 letters, digits, ., - or _`);
    check(HOST.test(host), `cluster host ${JSON.stringify(host)} must be a host name or an IP address`);
    check(Number.isInteger(port) && port >= 1 && port <= 65535, `cluster port ${port} must be between 1 and 65535`);
    check(!ports.some(([, p]) => p === port), `cluster port ${port} is also another listener's port`);
    for (const route of routes) check(ROUTE.test(route), `route ${JSON.stringify(route)} must be host:port`);
  }
}
