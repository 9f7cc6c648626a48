import { describe, expect, it } from "vitest";
import { clusterReachability } from "./bus-nodes";

const info = (jetstream = true) => ({ serverId: "N", serverName: "bus-hub-1", version: "2.15.2", jetstream });
const up = (n: number, jetstream = true) => ({ server: `nats://n${n}:4222`, info: info(jetstream) });
const down = (n: number) => ({ server: `nats://n${n}:4222`, problem: `nothing listens on n${n}:4222 (connection refused)` });

describe("clusterReachability", () => {
  it("is ok while every node answers", () => {
    expect(clusterReachability({ nodes: [up(1), up(2), up(3)] }, "start")).toEqual({ state: "ok", detail: "3 of 3 bus nodes answer: nats-server 2.15.2" });
  });

  it("warns, never fails, while a majority answers, naming the silent node and why", () => {
    const outcome = clusterReachability({ nodes: [up(1), down(2), up(3)] }, "start");
    expect(outcome.state).toBe("warn");
    expect(outcome.detail).toBe("2 of 3 bus nodes answer (the cluster acts without the others): nats://n2:4222: nothing listens on n2:4222 (connection refused)");
  });

  it("fails below a majority and when no node answers, with the start fix", () => {
    for (const nodes of [[up(1), down(2), down(3)], [down(1), down(2), down(3)]]) {
      const outcome = clusterReachability({ nodes }, "start");
      expect(outcome).toMatchObject({ state: "fail", fix: "start" });
      expect(outcome.detail).toContain("no majority");
    }
  });

  it("warns when a node answers without persistence", () => {
    expect(clusterReachability({ nodes: [up(1), up(2, false), up(3)] }, "start")).toMatchObject({ state: "warn", detail: expect.stringContaining("disabled on nats://n2:4222") });
  });
});
