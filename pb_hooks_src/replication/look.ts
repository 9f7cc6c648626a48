/// <reference path="../../build/types/types.d.ts" />
// One look at Litestream's metrics listener (goja glue over observation.ts), at each readiness probe and
// each scrape; what it found is kept in the store every VM shares.
import { currentConfig } from "../config/runtime";
import { NO_LOOK_YET, afterLook, parseLitestreamMetrics, type LitestreamNumbers, type ReplicationState } from "./observation";
import { replicationWanted } from "./process";

const STATE_KEY = "platform.replication.state";

export function lookAtReplication(app: CoreApp): void {
  if (!replicationWanted(app)) return;
  const previous = (app.store().get(STATE_KEY) as ReplicationState | undefined) ?? NO_LOOK_YET;
  app.store().set(STATE_KEY, afterLook(previous, readLitestream(currentConfig().replication.metrics_addr), Date.now()));
}

/** The state for the metrics; undefined when this process does not replicate. */
export function replicationState(app: CoreApp): ReplicationState | undefined {
  if (!replicationWanted(app)) return undefined;
  return (app.store().get(STATE_KEY) as ReplicationState | undefined) ?? NO_LOOK_YET;
}

/** Litestream's numbers from its listener, or undefined when it does not answer as Litestream. */
export function readLitestream(address: string): LitestreamNumbers | undefined {
  try {
    const response = $http.send({ url: `http://${address}/metrics`, method: "GET", timeout: 1 });
    return response.statusCode === 200 ? parseLitestreamMetrics(toString(response.body)) : undefined;
  } catch {
    return undefined;
  }
}
