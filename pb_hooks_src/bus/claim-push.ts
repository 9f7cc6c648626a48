// A signed claim pushed to the bus with $SYS.REQ.CLAIMS.UPDATE, as the system user: the one push every
// claim takes (tenants' accounts through publish.ts, the system account, the replication identity,
// withdrawals of deleted organizations' accounts).
import { currentConfig } from "../config/runtime";
import { operationReasonOf } from "../lib/sidecar-messages";
import { clusterClaimsOutcome, parseClaimsReply, replyServer, type ClaimsReply } from "./replies";
import { serverUrls } from "./server-port";
import { systemRequest, systemRequestAll } from "./system-request";

const CLAIMS_UPDATE = "$SYS.REQ.CLAIMS.UPDATE";
/** Every server of the cluster answers with its statistics, which name it. */
const SERVER_PING = "$SYS.REQ.SERVER.PING";
/** How long the ping waits for a listed node that has not answered: one that is down costs this per claim. */
const NODE_PING_WAIT_MS = 300;

/**
 * Pushes one signed account claim to the bus; the bus's answer, or why there was none. On a cluster every
 * node's resolver answers: the nodes up are asked first, and each must confirm.
 */
export function publishClaim(app: CoreApp, jwt: string): ClaimsReply {
  try {
    const nodes = serverUrls(currentConfig().bus.server_url).length;
    if (nodes === 1) return parseClaimsReply(systemRequest(app, CLAIMS_UPDATE, jwt));
    const up = nodesUp(app);
    return clusterClaimsOutcome(up, systemRequestAll(app, CLAIMS_UPDATE, jwt, up.length), nodes);
  } catch (err) {
    return { ok: false, message: `the bus has not confirmed it: ${operationReasonOf(err)}` };
  }
}

/**
 * The names of the cluster's nodes that answer the system ping: up, and routed to the node the control
 * plane is connected to. Every listed node answers at once; only while one is down does the ping wait its bound.
 */
export function nodesUp(app: CoreApp): string[] {
  const listed = serverUrls(currentConfig().bus.server_url).length;
  return systemRequestAll(app, SERVER_PING, "", listed, NODE_PING_WAIT_MS).map(replyServer).filter((name) => name !== "");
}
