import { describe, expect, it } from "vitest";
import { NODE_BACK_PATH } from "../common/sidecar/routes";
import type { BusNodesResponse } from "../common/sidecar/protocol";
import { NodeWatch, nodesBack } from "./node-watch";
import type { PostAnswer } from "./prober";

const SERVERS = ["nats://10.0.0.1:4222", "nats://10.0.0.2:4222", "nats://10.0.0.3:4222"];

/** Nodes answering with these ids (undefined: not answering); node i is named bus-hub-<i+1>. */
function answer(...ids: (string | undefined)[]): BusNodesResponse {
  return {
    nodes: ids.map((id, i) =>
      id === undefined
        ? { server: SERVERS[i], problem: "nothing listens" }
        : { server: SERVERS[i], info: { serverId: id, serverName: `bus-hub-${i + 1}`, version: "2.15.2", jetstream: true } },
    ),
  };
}

describe("nodesBack", () => {
  it("reports nothing in the first round, with nothing to compare", () => {
    expect(nodesBack(undefined, answer("A", undefined, "C")).back).toEqual([]);
  });

  it("reports a node that answers again after a round without it", () => {
    const { ids } = nodesBack(undefined, answer("A", "B", undefined));
    expect(nodesBack(ids, answer("A", "B", "C2")).back).toEqual([{ server: SERVERS[2], name: "bus-hub-3" }]);
  });

  it("reports a node restarted between two rounds: it answers with a new server id", () => {
    const { ids } = nodesBack(undefined, answer("A", "B", "C"));
    expect(nodesBack(ids, answer("A", "B2", "C")).back.map((n) => n.name)).toEqual(["bus-hub-2"]);
  });

  it("reports nothing for nodes that stay up or stay down", () => {
    const { ids } = nodesBack(undefined, answer("A", undefined, "C"));
    expect(nodesBack(ids, answer("A", undefined, "C")).back).toEqual([]);
  });

  it("names a node without server_name by its URL", () => {
    const { ids } = nodesBack(undefined, { nodes: [{ server: SERVERS[0] }] });
    const back = nodesBack(ids, { nodes: [{ server: SERVERS[0], info: { serverId: "A", serverName: "", version: "", jetstream: false } }] }).back;
    expect(back).toEqual([{ server: SERVERS[0], name: SERVERS[0] }]);
  });
});

describe("NodeWatch.round", () => {
  function watch(answers: BusNodesResponse[], postAnswers: PostAnswer[]) {
    const posted: unknown[] = [];
    const warnings: string[] = [];
    const nodeWatch = new NodeWatch(SERVERS, {
      readNodes: () => Promise.resolve(answers.shift() ?? answer()),
      post: (path, body) => {
        posted.push({ path, body });
        return Promise.resolve(postAnswers.shift() ?? { status: 200, body: "{}" });
      },
      warn: (message) => warnings.push(message),
    });
    return { nodeWatch, posted, warnings };
  }

  it("tells PocketBase of a node back, by name", async () => {
    const { nodeWatch, posted } = watch([answer("A", "B", undefined), answer("A", "B", "C")], []);
    await nodeWatch.round();
    await nodeWatch.round();
    expect(posted).toEqual([{ path: NODE_BACK_PATH, body: { name: "bus-hub-3" } }]);
  });

  it("tells it again next round when PocketBase did not take the news", async () => {
    const { nodeWatch, posted, warnings } = watch([answer("A", undefined, "C"), answer("A", "B", "C"), answer("A", "B", "C"), answer("A", "B", "C")], [{ status: 503, body: "" }]);
    for (let i = 0; i < 4; i++) await nodeWatch.round();
    expect(posted).toHaveLength(2);
    expect(warnings).toEqual(["bus node bus-hub-2 is back, but PocketBase did not take the news (503); telling it again"]);
  });
});
