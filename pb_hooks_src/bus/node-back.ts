// A hub node back from an outage (issue 34 item 2): the sidecar's node watch reports it by name
// (sidecar/node-watch.ts), and every account claim whose last publication that node did not confirm is
// pushed again at once, not left to the resolvers' own sync (2 s) or the minute's reconcile. The node must
// first be routed to the rest of the hub, or the push would not reach it.
import { currentConfig } from "../config/runtime";
import { findAll } from "../lib/collections";
import { collectionNames } from "../schema/names";
import { nodesUp } from "./claim-push";
import { publishCurrent } from "./publish";
import { confirmedNodes } from "./replies";
import { writeRefusal } from "../replication/lease";

/** How long a node back may take to join the hub's routes before the push is left to the reconcile. */
const ROUTED_WITHIN_MS = 10_000;
const ROUTED_POLL_MS = 250;

export interface NodeBackSummary {
  node: string;
  /** Whether the node answered the system ping (is routed) within ROUTED_WITHIN_MS. */
  routed: boolean;
  /** Accounts whose last publication the node had not confirmed, each pushed again. */
  missed: number;
  confirmed: number;
}

export function pushClaimsMissedBy(app: CoreApp, node: string): NodeBackSummary {
  if (writeRefusal(app)) return { node, routed: false, missed: 0, confirmed: 0 };
  if (!awaitRouted(app, node)) {
    console.warn(`bus: node ${node} is back but did not join the hub's routes within ${ROUTED_WITHIN_MS / 1000} s; the minute's reconcile will push its claims`);
    return { node, routed: false, missed: 0, confirmed: 0 };
  }
  const n = collectionNames(currentConfig());
  const missed = findAll(app, n.bus_accounts, "")
    .filter((account) => !confirmedNodes(account.getString("bus_status")).includes(node))
    .map((account) => account.id);
  let confirmed = 0;
  for (const id of missed) {
    if (publishCurrent(app, n, id)) confirmed++;
  }
  console.log(`bus: node ${node} is back; pushed the ${missed.length} account claims it had not confirmed (${confirmed} now confirmed)`);
  return { node, routed: true, missed: missed.length, confirmed };
}

function awaitRouted(app: CoreApp, node: string): boolean {
  const deadline = Date.now() + ROUTED_WITHIN_MS;
  for (;;) {
    try {
      if (nodesUp(app).includes(node)) return true;
    } catch {
      // The bus did not answer this time: asked again until the deadline.
    }
    if (Date.now() >= deadline) return false;
    sleep(ROUTED_POLL_MS);
  }
}
