// Publication of account claims over the control plane's own bus connection (as the system user), with
// $SYS.REQ.CLAIMS.UPDATE. A suspended account's claim admits nothing (accounts.ts): the server drops its
// connections and the full resolver keeps that claim across restarts. $SYS.REQ.CLAIMS.DELETE is not used:
// with nats-server 2.15.2 a deleted account that clients keep dialling could stay locked out after its
// claim was pushed again (docs/bus.md). The outcome is recorded on the account row, never hidden.
import { currentConfig } from "../config/runtime";
import { sidecarCall } from "../lib/sidecar";
import { SidecarError, reasonOf } from "../lib/sidecar-messages";
import { logPublication } from "../audit/verbose";
import type { CollectionNames } from "../schema/names";
import { operatorKeys } from "./operator";
import type { NatsRepliesResponse } from "../../common/sidecar/protocol";
import { clusterClaimsOutcome, parseClaimsReply, replyServer, type ClaimsReply } from "./replies";
import { serverUrls } from "./server-port";
import { writeRefusal } from "../replication/lease";

const PUBLISH_TIMEOUT_MS = 3000;
const CLAIMS_UPDATE = "$SYS.REQ.CLAIMS.UPDATE";
/** Every server of the cluster answers with its statistics, which name it. */
const SERVER_PING = "$SYS.REQ.SERVER.PING";
/** How long the ping waits for a listed node that has not answered: one that is down costs this per claim. */
const NODE_PING_WAIT_MS = 300;

export function publishAccount(app: CoreApp, n: CollectionNames, account: core.Record): ClaimsReply {
  // Only the write lease's holder pushes tenants' claims: a demoted primary's could undo a newer one.
  const refusal = writeRefusal(app);
  const outcome = refusal ? { ok: false, message: `not pushed: ${refusal}` } : publishClaim(app, account.getString("jwt"));
  recordOutcome(app, n, account, outcome);
  logPublication(account, outcome.ok, outcome.message);
  return outcome;
}

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
    // The sidecar's own words ("the bus at … could not be reached"), not its route's name.
    return { ok: false, message: `the bus has not confirmed it: ${err instanceof SidecarError ? err.reason : reasonOf(err)}` };
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

/** A system API request every node of a cluster answers: `count` replies, or those within `waitMs`. */
function systemRequestAll(app: CoreApp, subject: string, payload: string, count: number, waitMs?: number): string[] {
  const { replies } = sidecarCall<NatsRepliesResponse>("/v1/nats/request-all", {
    servers: serverUrls(currentConfig().bus.server_url),
    creds: operatorKeys(app).systemUserCreds,
    subject,
    payload,
    timeoutMs: PUBLISH_TIMEOUT_MS,
    count,
    ...(waitMs === undefined ? {} : { waitMs }),
  }, PUBLISH_TIMEOUT_MS / 1000 + 2);
  return replies;
}

/** One request to the bus's system API as the system user; throws when no reply comes. */
export function systemRequest(app: CoreApp, subject: string, payload: string): string {
  const { reply } = sidecarCall<{ reply: string }>("/v1/nats/request", {
    servers: serverUrls(currentConfig().bus.server_url),
    creds: operatorKeys(app).systemUserCreds,
    subject,
    payload,
    timeoutMs: PUBLISH_TIMEOUT_MS,
  }, PUBLISH_TIMEOUT_MS / 1000 + 2);
  return reply;
}

/** Written with a plain UPDATE: the outcome is not a change of desired state (no hooks, no audit entry). */
function recordOutcome(app: CoreApp, n: CollectionNames, account: core.Record, outcome: ClaimsReply): void {
  app.db()
    .newQuery(`UPDATE {{${n.bus_accounts}}} SET bus_confirmed = {:ok}, bus_status = {:status} WHERE id = {:id}`)
    .bind({ ok: outcome.ok, status: outcome.message.slice(0, 500), id: account.id })
    .execute();
  account.set("bus_confirmed", outcome.ok);
  account.set("bus_status", outcome.message.slice(0, 500));
}
