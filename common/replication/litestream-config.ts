// The Litestream configuration serve writes for the record store (pure): one database, data.db, and one
// replica, either a Litestream replica URL the operator gave (replication.url: file://, s3://, ...) or the
// bus's own object store, reached as the platform's replication identity (replication/identity.ts).
// Values are written as JSON strings, which YAML reads as they are.

export type ReplicaTarget =
  | { kind: "url"; url: string }
  | {
      kind: "bus";
      /** The hub's client URLs (bus.server_url): Litestream's NATS client takes them comma-separated. */
      servers: string[];
      bucket: string;
      /** The replication identity's creds file. */
      credsPath: string;
      /** The hub's URLs are tls://: Litestream must speak TLS too. */
      tls?: boolean;
    };

export interface LitestreamInput {
  dbPath: string;
  replica: ReplicaTarget;
  /** A Go duration (replication.sync_interval). */
  syncInterval: string;
  /** host:port of Litestream's Prometheus listener, on loopback; empty: none. */
  metricsAddr: string;
}

const q = (value: string): string => JSON.stringify(value);

/** nats://h1:4222,h2:4222/bucket: the hosts of every server, userinfo left out (the creds file authenticates). */
export function busReplicaUrl(servers: readonly string[], bucket: string): string {
  const hosts = servers.map((url) => url.replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/\/(?:[^@/]*@)?/, "").replace(/\/.*$/, ""));
  return `nats://${hosts.join(",")}/${bucket}`;
}

export function renderLitestreamConfig(input: LitestreamInput): string {
  const { replica } = input;
  const target =
    replica.kind === "url"
      ? [`      url: ${q(replica.url)}`]
      : [`      url: ${q(busReplicaUrl(replica.servers, replica.bucket))}`, `      creds: ${q(replica.credsPath)}`, ...(replica.tls ? ["      tls: true"] : [])];
  return [
    "# Written by serve from replication.* at each start (pb_hooks_src/replication/); edits are lost.",
    ...(input.metricsAddr ? [`addr: ${q(input.metricsAddr)}`] : []),
    // The last upload at a stop must end well before the write lease lapses (10 s): a standby may take it then.
    'shutdown-sync-timeout: "5s"',
    "dbs:",
    `  - path: ${q(input.dbPath)}`,
    // How often Litestream looks at the WAL for new pages (default 1 s): each look costs a stat and a read of
    // what is new, and at 1 s it adds up to a second to every write's way to the replica (docs/litestream.md §6).
    '    monitor-interval: "250ms"',
    "    replica:",
    ...target,
    `      sync-interval: ${q(input.syncInterval)}`,
    "",
  ].join("\n");
}
