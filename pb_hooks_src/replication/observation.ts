// What the platform knows of its replication (issue 35 item 4, pure). Litestream's own metrics
// (its `addr` listener, on loopback) count uploads to the replica and name the newest local transaction,
// but say neither when the replica last took something nor how far it is behind (docs/litestream.md).
// Both are derived here from successive looks: an upload is seen when the upload count grows; the lag is
// how long a local transaction newer than the one current at the last upload has waited for the next.
// Looks happen at each readiness probe and each scrape, so their resolution is the shorter interval.
import { family, single, type MetricFamily } from "../observability/metrics/exposition";

export interface LitestreamNumbers {
  /** Successful PUTs to the replica. */
  uploads: number;
  uploadErrors: number;
  /** The newest local transaction Litestream has taken from the database. */
  txid: number;
}

export interface ReplicationState {
  /** Whether the last look found Litestream answering. */
  up: boolean;
  numbers?: LitestreamNumbers;
  /** When the upload count last grew (epoch ms). */
  lastUploadMs?: number;
  /** The local transaction current when the last upload was seen. */
  txidAtUpload: number;
  /** Since when a newer local transaction has waited for an upload (epoch ms). */
  pendingSinceMs?: number;
}

export const NO_LOOK_YET: ReplicationState = { up: false, txidAtUpload: 0 };

/** The numbers of Litestream's Prometheus text; undefined when it is not Litestream's. */
export function parseLitestreamMetrics(text: string): LitestreamNumbers | undefined {
  let uploads: number | undefined;
  let uploadErrors = 0;
  let txid: number | undefined;
  for (const line of text.split("\n")) {
    const match = /^(\w+)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (!match) continue;
    const [, name, labels = "", raw] = match;
    const value = Number(raw);
    if (!Number.isFinite(value)) continue;
    if (name === "litestream_replica_operation_total" && labels.includes('operation="PUT"')) uploads = (uploads ?? 0) + value;
    else if (name === "litestream_replica_operation_errors_total" && labels.includes('operation="PUT"')) uploadErrors += value;
    else if (name === "litestream_txid") txid = Math.max(txid ?? 0, value);
  }
  // Before its first upload Litestream has not created the PUT series yet.
  if (txid === undefined && uploads === undefined) return undefined;
  return { uploads: uploads ?? 0, uploadErrors, txid: txid ?? 0 };
}

/** The state after one look at `nowMs`: `numbers` undefined when Litestream did not answer. */
export function afterLook(previous: ReplicationState, numbers: LitestreamNumbers | undefined, nowMs: number): ReplicationState {
  if (!numbers) return { ...previous, up: false };
  const uploaded = previous.numbers === undefined ? numbers.uploads > 0 : numbers.uploads > previous.numbers.uploads;
  if (uploaded) return { up: true, numbers, lastUploadMs: nowMs, txidAtUpload: numbers.txid };
  const waiting = numbers.txid > previous.txidAtUpload;
  return { ...previous, up: true, numbers, pendingSinceMs: waiting ? (previous.pendingSinceMs ?? nowMs) : undefined };
}

/** The replication series; none when replication is off (`state` undefined). */
export function replicationFamilies(state: ReplicationState | undefined, nowMs: number): MetricFamily[] {
  if (!state) return [];
  const families = [single("platform_replication_up", "gauge", "1 while Litestream, streaming the record store to its replica, answers.", state.up ? 1 : 0)];
  if (state.numbers) {
    // Not its failed uploads: Litestream counts those for S3 alone; the lag says what failures cost.
    families.push(single("platform_replication_uploads_total", "counter", "Files Litestream uploaded to the replica since it started.", state.numbers.uploads));
  }
  if (state.lastUploadMs !== undefined) {
    families.push(single("platform_replication_last_upload_timestamp_seconds", "gauge", "When an upload to the replica was last seen (seen at readiness probes and scrapes).", state.lastUploadMs / 1000));
  }
  const lag = state.pendingSinceMs === undefined ? 0 : (nowMs - state.pendingSinceMs) / 1000;
  families.push(family("platform_replication_lag_seconds", "gauge", "How long the oldest local transaction not yet seen uploaded has waited; 0 when the replica is current.", [{ value: lag }]));
  return families;
}
