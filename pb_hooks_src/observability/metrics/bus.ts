// Embedded-bus series (spec 4.3 rule 5): only under `serve --bus`. Pure: parsing what nats-server's
// $SYS.REQ.SERVER.PING.VARZ answers and the supervisor's /proc state, and the series from them.
import { family, single, type MetricFamily } from "./exposition";

export const VARZ_SUBJECT = "$SYS.REQ.SERVER.PING.VARZ";

/** The numbers of a varz reply the series use (nats-server 2.15.2 field names). */
export interface BusVarz {
  connections: number;
  routes: number;
  leafnodes: number;
  slowConsumers: number;
  inMsgs: number;
  outMsgs: number;
  inBytes: number;
  outBytes: number;
  /** Absent when JetStream is off in the server config. */
  persist?: { memory: number; disk: number };
}

/** Parses the reply `{data: {...varz}, server: {...}}`; throws when it is not a varz reply. */
export function parseVarz(reply: string): BusVarz {
  const parsed = JSON.parse(reply) as { data?: Record<string, unknown>; error?: { description?: string } };
  if (parsed.error) throw new Error(`varz refused: ${parsed.error.description ?? "no description"}`);
  const data = parsed.data;
  if (!data || typeof data !== "object") throw new Error("varz reply has no data");
  const number = (name: string): number => {
    const value = data[name];
    if (typeof value !== "number") throw new Error(`varz reply has no number ${name}`);
    return value;
  };
  const stats = (data.jetstream as { stats?: { memory?: unknown; storage?: unknown } } | undefined)?.stats;
  const persist = stats && typeof stats.memory === "number" && typeof stats.storage === "number"
    ? { memory: stats.memory, disk: stats.storage }
    : undefined;
  return {
    connections: number("connections"),
    routes: number("routes"),
    leafnodes: number("leafnodes"),
    slowConsumers: number("slow_consumers"),
    inMsgs: number("in_msgs"),
    outMsgs: number("out_msgs"),
    inBytes: number("in_bytes"),
    outBytes: number("out_bytes"),
    persist,
  };
}

/**
 * Whether /proc/<pid>/stat describes a live process. The supervisor is never waited for while serving, so
 * once it ends it stays a zombie (state Z) and its /proc entry remains.
 */
export function aliveFromProcStat(stat: string): boolean {
  const state = /\)\s+(\S)/.exec(stat)?.[1];
  return state !== undefined && state !== "Z" && state !== "X";
}

/** Without `varz` (the request failed or the child is down) only platform_bus_embedded_up is emitted. */
export function busFamilies(up: boolean, varz: BusVarz | undefined): MetricFamily[] {
  const families = [single("platform_bus_embedded_up", "gauge", "1 while the embedded nats-server child of serve --bus runs.", up ? 1 : 0)];
  if (!varz) return families;
  const direction = (inValue: number, outValue: number) => [
    { labels: [["direction", "in"]] as const, value: inValue },
    { labels: [["direction", "out"]] as const, value: outValue },
  ];
  families.push(
    single("platform_bus_connections", "gauge", "Client connections to the embedded bus server, all accounts.", varz.connections),
    single("platform_bus_cluster_routes", "gauge", "Cluster routes of the embedded bus server.", varz.routes),
    single("platform_bus_leafnode_connections", "gauge", "Leaf node connections to the embedded bus server, all accounts (a capacity number).", varz.leafnodes),
    single("platform_bus_slow_consumers_total", "counter", "Slow consumers the embedded bus server has seen.", varz.slowConsumers),
    family("platform_bus_msgs_total", "counter", "Messages through the embedded bus server.", direction(varz.inMsgs, varz.outMsgs)),
    family("platform_bus_bytes_total", "counter", "Payload bytes through the embedded bus server.", direction(varz.inBytes, varz.outBytes)),
  );
  if (varz.persist) {
    families.push(family("platform_bus_persist_bytes", "gauge", "Bytes the embedded bus server persists, by storage tier.", [
      { labels: [["tier", "memory"]], value: varz.persist.memory },
      { labels: [["tier", "disk"]], value: varz.persist.disk },
    ]));
  }
  return families;
}
