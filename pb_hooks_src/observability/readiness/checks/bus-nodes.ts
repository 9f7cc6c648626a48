// bus_reachable for a cluster (bus.server_url names several nodes), pure: ok while every node answers,
// warn while a majority does (the cluster acts, degraded), fail below that. The nodes' own words say why.
import type { BusNodesResponse } from "../../../../common/sidecar/protocol";
import type { CheckOutcome } from "./check";

export function clusterReachability({ nodes }: BusNodesResponse, startFix: string): CheckOutcome {
  const answering = nodes.filter((node) => node.info !== undefined);
  const silent = nodes.filter((node) => node.info === undefined).map((node) => `${node.server}: ${node.problem ?? "no answer"}`);
  const count = `${answering.length} of ${nodes.length} bus nodes answer`;
  const versions = [...new Set(answering.map((node) => node.info?.version ?? ""))].join(", ");
  const withoutPersistence = answering.filter((node) => node.info?.jetstream !== true).map((node) => node.server);
  if (answering.length * 2 <= nodes.length) {
    return { state: "fail", detail: `${count}, no majority: ${silent.join("; ")}`, fix: startFix };
  }
  if (silent.length > 0) {
    return { state: "warn", detail: `${count} (the cluster acts without the others): ${silent.join("; ")}`, fix: "Start the bus nodes that do not answer (docs/operations.md \"A hub of three nodes\")." };
  }
  if (withoutPersistence.length > 0) {
    return { state: "warn", detail: `${count}, but persistence (JetStream) is disabled on ${withoutPersistence.join(", ")}`, fix: "Enable jetstream in those nodes' configs (bus export writes it) and restart them one at a time." };
  }
  return { state: "ok", detail: `${count}: nats-server ${versions}` };
}
