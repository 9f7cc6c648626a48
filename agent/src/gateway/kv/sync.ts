// Key-value sync of a gateway (issue 11 item 4): the declared mirrors (hub → site) and relays
// (site → hub), each working over the agent's connection to the local leaf (a new connection restarts
// their work on it), the `sync` check and the agent_edge_sync_up / agent_edge_relay_pending series.
import type { NatsConnection } from "@nats-io/transport-node";
import { Gauge, type Registry } from "prom-client";
import type { Check } from "../../health/check";
import type { Logger } from "../../lib/log";
import { startMirror } from "./mirror";
import { startRelay } from "./relay";
import type { BucketSync } from "./runner";
import { syncOutcome, type BucketStatus, type Direction } from "./status";
import { validBucket } from "./wire";

export interface KvTuning {
  /** Between attempts while a hub bucket is missing or a write failed, and between looks at a mirror. */
  retryMs: number;
  /** Keys a relay writes at once. */
  concurrency: number;
  /** Bound of one JetStream request. */
  requestMs: number;
}

const DEFAULT_TUNING: KvTuning = { retryMs: 2_000, concurrency: 64, requestMs: 2_000 };

export interface KvSyncOptions {
  /** The agent's connection to the local leaf, when open. */
  local(): NatsConnection | undefined;
  /** Called with each new connection to the local leaf (at once when one is open). */
  onConnected(listener: (nc: NatsConnection) => void): void;
  /** leaf-config's hub_domain: the hub's JetStream domain. */
  hubDomain: string;
  mirrors: string[];
  relays: string[];
  /** Relay cursors live under <stateDir>/kv/. */
  stateDir: string;
  logger: Logger;
  /** The agent's metrics registry (AgentContext.metrics.registry). */
  registry: Registry;
  /** Whether the leaf's uplink to the hub is attached. */
  uplinkUp(): boolean;
  tuning?: Partial<KvTuning>;
}

export interface KvSync {
  /** The gateway's `sync` check (spec 4.4). */
  check: Check;
  statuses(): BucketStatus[];
  /** Ends every bucket's work and persists the relay cursors; removes the series. */
  stop(): Promise<void>;
}

const INVALID = "not a bucket name NATS accepts (letters, digits, - and _ only)";

/** A declared bucket whose name cannot be a bucket: reported, never worked on. */
function refused(bucket: string, direction: Direction): BucketSync {
  return { status: () => ({ bucket, direction, syncing: false, reason: INVALID }), attach: () => undefined, stop: async () => undefined };
}

const SYNC_UP = "agent_edge_sync_up";
const RELAY_PENDING = "agent_edge_relay_pending";

export function startKvSync(options: KvSyncOptions): KvSync {
  const tuning = { ...DEFAULT_TUNING, ...options.tuning };
  const shared = { hubDomain: options.hubDomain, logger: options.logger, uplinkUp: options.uplinkUp, retryMs: tuning.retryMs, requestMs: tuning.requestMs };
  const buckets: BucketSync[] = [
    ...options.mirrors.map((bucket) => (validBucket(bucket) ? startMirror({ ...shared, bucket }) : refused(bucket, "hub_to_site"))),
    ...options.relays.map((bucket) => (validBucket(bucket) ? startRelay({ ...shared, bucket, stateDir: options.stateDir, concurrency: tuning.concurrency }) : refused(bucket, "site_to_hub"))),
  ];
  for (const status of buckets.map((b) => b.status()).filter((s) => !s.syncing && s.reason === INVALID)) {
    options.logger.error("kv: bucket name refused", { bucket: status.bucket, reason: INVALID });
  }
  const statuses = () => buckets.map((b) => b.status());
  let stopped = false;
  options.onConnected((nc) => {
    if (stopped) return;
    for (const bucket of buckets) bucket.attach(nc);
  });

  new Gauge({
    name: SYNC_UP,
    help: "1 while a declared key-value bucket syncs in its direction (hub_to_site: mirror, site_to_hub: relay), else 0.",
    labelNames: ["bucket", "direction"] as const,
    registers: [options.registry],
    collect() {
      this.reset();
      for (const status of statuses()) this.set({ bucket: status.bucket, direction: status.direction }, status.syncing ? 1 : 0);
    },
  });
  new Gauge({
    name: RELAY_PENDING,
    help: "Keys changed at the site in a relayed bucket and not yet confirmed at the hub.",
    labelNames: ["bucket"] as const,
    registers: [options.registry],
    collect() {
      this.reset();
      for (const status of statuses()) if (status.pending !== undefined) this.set({ bucket: status.bucket }, status.pending);
    },
  });

  return {
    check: { name: "sync", run: async () => syncOutcome(statuses(), options.local() !== undefined) },
    statuses,
    async stop() {
      stopped = true;
      await Promise.all(buckets.map((b) => b.stop()));
      options.registry.removeSingleMetric(SYNC_UP);
      options.registry.removeSingleMetric(RELAY_PENDING);
    },
  };
}
