import { describe, expect, it } from "vitest";
import { aliveFromProcStat, busFamilies, parseVarz } from "./bus";
import { renderFamily } from "./exposition";

const VARZ = {
  data: {
    server_id: "N1", connections: 4, routes: 0, leafnodes: 1, slow_consumers: 2,
    in_msgs: 10, out_msgs: 20, in_bytes: 300, out_bytes: 400,
    jetstream: { config: { max_memory: 1 }, stats: { memory: 5, storage: 600 } },
  },
  server: { name: "hub" },
};

describe("parseVarz", () => {
  it("reads the numbers the series use", () => {
    expect(parseVarz(JSON.stringify(VARZ))).toEqual({
      connections: 4, routes: 0, leafnodes: 1, slowConsumers: 2, inMsgs: 10, outMsgs: 20, inBytes: 300, outBytes: 400,
      persist: { memory: 5, disk: 600 },
    });
  });

  it("has no persistence figures when JetStream is off", () => {
    const { jetstream: _, ...data } = VARZ.data;
    expect(parseVarz(JSON.stringify({ data })).persist).toBeUndefined();
  });

  it("refuses an error reply or one without the numbers", () => {
    expect(() => parseVarz(JSON.stringify({ error: { code: 503, description: "no" } }))).toThrow(/varz refused: no/);
    expect(() => parseVarz(JSON.stringify({ data: { connections: 1 } }))).toThrow(/routes/);
    expect(() => parseVarz("not json")).toThrow();
  });
});

describe("aliveFromProcStat", () => {
  it("reads the state after the command name, which may contain spaces and parentheses", () => {
    expect(aliveFromProcStat("4242 (bash) S 1 4242 4242 0 -1")).toBe(true);
    expect(aliveFromProcStat("4242 (bus (super) visor) R 1")).toBe(true);
    expect(aliveFromProcStat("4242 (bash) Z 1 4242")).toBe(false);
    expect(aliveFromProcStat("")).toBe(false);
  });
});

describe("busFamilies", () => {
  it("emits only platform_bus_embedded_up without varz", () => {
    expect(busFamilies(false, undefined).flatMap(renderFamily).filter((l) => !l.startsWith("#"))).toEqual(["platform_bus_embedded_up 0"]);
  });

  it("emits every embedded-bus series with varz", () => {
    const samples = busFamilies(true, parseVarz(JSON.stringify(VARZ))).flatMap(renderFamily).filter((l) => !l.startsWith("#"));
    expect(samples).toEqual([
      "platform_bus_embedded_up 1",
      "platform_bus_connections 4",
      "platform_bus_cluster_routes 0",
      "platform_bus_leafnode_connections 1",
      "platform_bus_slow_consumers_total 2",
      'platform_bus_msgs_total{direction="in"} 10',
      'platform_bus_msgs_total{direction="out"} 20',
      'platform_bus_bytes_total{direction="in"} 300',
      'platform_bus_bytes_total{direction="out"} 400',
      'platform_bus_persist_bytes{tier="memory"} 5',
      'platform_bus_persist_bytes{tier="disk"} 600',
    ]);
  });
});
