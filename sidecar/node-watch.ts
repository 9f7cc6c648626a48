// A hub node back from an outage (issue 34): every second the sidecar reads each node's INFO line (no
// credential needed) and tells PocketBase about a node that answers with a server id it did not answer with
// a round before: it was down, or restarted in between (nats-server draws a new id at every start).
// PocketBase then pushes the account claims that node missed (pb_hooks_src/bus/node-back.ts), so the node
// does not depend on the resolver's own sync alone.
import { NODE_BACK_PATH } from "../common/sidecar/routes";
import type { BusNodesResponse } from "../common/sidecar/protocol";
import type { Post } from "./prober";
import { repeatEvery, type Repeating } from "./repeat";

export const NODE_WATCH_INTERVAL_MS = 1_000;
/** One round's INFO reads; a node that does not answer within it counts as down for the round. */
const INFO_TIMEOUT_MS = 800;

/** The server id each node answered with in the last round; undefined: it did not answer. */
export type NodeIds = ReadonlyMap<string, string | undefined>;

export interface NodeBack {
  server: string;
  /** Its server_name, what claim confirmations name it by. */
  name: string;
}

/**
 * The nodes back since `previous` (none in the first round, when there is nothing to compare with: serve's
 * start publishes every claim anyway), and the ids to compare the next round with.
 */
export function nodesBack(previous: NodeIds | undefined, answer: BusNodesResponse): { back: NodeBack[]; ids: NodeIds } {
  const ids = new Map(answer.nodes.map((node) => [node.server, node.info?.serverId] as const));
  if (!previous) return { back: [], ids };
  const back = answer.nodes
    .filter((node) => node.info !== undefined && node.info.serverId !== previous.get(node.server))
    .map((node) => ({ server: node.server, name: node.info?.serverName || node.server }));
  return { back, ids };
}

export interface NodeWatchDeps {
  post: Post;
  readNodes: (servers: string[], timeoutMs: number) => Promise<BusNodesResponse>;
  warn: (message: string) => void;
}

export class NodeWatch {
  private ids: NodeIds | undefined;
  private schedule: Repeating | undefined;

  constructor(
    private readonly servers: string[],
    private readonly deps: NodeWatchDeps,
  ) {}

  start(): void {
    this.schedule = repeatEvery(NODE_WATCH_INTERVAL_MS, async () => void (await this.round()), this.deps.warn, "bus node watch");
  }

  stop(): void {
    this.schedule?.stop();
  }

  /** One round: read every node, report each one back. A report PocketBase did not take is made again next round. */
  async round(): Promise<NodeBack[]> {
    const { back, ids } = nodesBack(this.ids, await this.deps.readNodes(this.servers, INFO_TIMEOUT_MS));
    const next = new Map(ids);
    for (const node of back) {
      const answer = await this.deps.post(NODE_BACK_PATH, { name: node.name }).catch((err: unknown) => ({ status: 0, body: String(err) }));
      if (answer.status !== 200) {
        next.set(node.server, this.ids?.get(node.server));
        this.deps.warn(`bus node ${node.name} is back, but PocketBase did not take the news (${answer.status || answer.body}); telling it again`);
      }
    }
    this.ids = next;
    return back;
  }
}
