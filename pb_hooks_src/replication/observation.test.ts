import { describe, expect, it } from "vitest";
import { NO_LOOK_YET, afterLook, parseLitestreamMetrics, replicationFamilies } from "./observation";

const METRICS = `# HELP litestream_replica_operation_total The number of replica operations performed
# TYPE litestream_replica_operation_total counter
litestream_replica_operation_total{operation="LIST",replica_type="nats"} 40
litestream_replica_operation_total{operation="PUT",replica_type="nats"} 12
litestream_replica_operation_errors_total{code="timeout",operation="PUT",replica_type="nats"} 2
litestream_txid{db="/d/data.db"} 77
`;

describe("parseLitestreamMetrics", () => {
  it("reads uploads, failed uploads and the newest local transaction", () => {
    expect(parseLitestreamMetrics(METRICS)).toEqual({ uploads: 12, uploadErrors: 2, txid: 77 });
  });
  it("is undefined for text that is not Litestream's", () => {
    expect(parseLitestreamMetrics("go_goroutines 3\n")).toBeUndefined();
  });
});

describe("afterLook", () => {
  it("sees an upload when the count grows, and a lag while a newer transaction waits for the next", () => {
    const first = afterLook(NO_LOOK_YET, { uploads: 1, uploadErrors: 0, txid: 5 }, 1_000);
    expect(first).toEqual({ up: true, numbers: { uploads: 1, uploadErrors: 0, txid: 5 }, lastUploadMs: 1_000, txidAtUpload: 5 });
    const waiting = afterLook(first, { uploads: 1, uploadErrors: 0, txid: 6 }, 2_000);
    expect(waiting.pendingSinceMs).toBe(2_000);
    expect(afterLook(waiting, { uploads: 1, uploadErrors: 1, txid: 7 }, 5_000).pendingSinceMs).toBe(2_000);
    expect(afterLook(waiting, { uploads: 2, uploadErrors: 0, txid: 7 }, 6_000)).toEqual({ up: true, numbers: { uploads: 2, uploadErrors: 0, txid: 7 }, lastUploadMs: 6_000, txidAtUpload: 7 });
  });
  it("keeps what it knew, marked down, when Litestream does not answer", () => {
    const seen = afterLook(NO_LOOK_YET, { uploads: 3, uploadErrors: 0, txid: 9 }, 1_000);
    expect(afterLook(seen, undefined, 2_000)).toEqual({ ...seen, up: false });
  });
});

describe("replicationFamilies", () => {
  it("has no series with replication off, and the lag in seconds otherwise", () => {
    expect(replicationFamilies(undefined, 0)).toEqual([]);
    const state = { up: true, numbers: { uploads: 3, uploadErrors: 1, txid: 9 }, lastUploadMs: 1_000, txidAtUpload: 8, pendingSinceMs: 4_000 };
    const names = Object.fromEntries(replicationFamilies(state, 10_000).map((f) => [f.name, f.samples[0].value]));
    expect(names).toEqual({
      platform_replication_up: 1,
      platform_replication_uploads_total: 3,
      platform_replication_last_upload_timestamp_seconds: 1,
      platform_replication_lag_seconds: 6,
    });
  });
});
