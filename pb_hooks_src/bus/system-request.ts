// Requests to the bus's system API ($SYS.REQ.…) as the operator's system user, through the sidecar's
// NATS client: claim pushes, claim lookups and server pings all go this way.
import { currentConfig } from "../config/runtime";
import { sidecarCall } from "../lib/sidecar";
import type { NatsRepliesResponse } from "../../common/sidecar/protocol";
import { operatorKeys } from "./operator";
import { serverUrls } from "./server-port";

/** How long one request waits for its reply. */
const SYSTEM_REQUEST_TIMEOUT_MS = 3000;

/** One request; throws when no reply comes. */
export function systemRequest(app: CoreApp, subject: string, payload: string): string {
  const { reply } = sidecarCall<{ reply: string }>("/v1/nats/request", requestBody(app, subject, payload), SYSTEM_REQUEST_TIMEOUT_MS / 1000 + 2);
  return reply;
}

/** A request every node of a cluster answers: `count` replies, or those within `waitMs`. */
export function systemRequestAll(app: CoreApp, subject: string, payload: string, count: number, waitMs?: number): string[] {
  const body = { ...requestBody(app, subject, payload), count, ...(waitMs === undefined ? {} : { waitMs }) };
  return sidecarCall<NatsRepliesResponse>("/v1/nats/request-all", body, SYSTEM_REQUEST_TIMEOUT_MS / 1000 + 2).replies;
}

function requestBody(app: CoreApp, subject: string, payload: string) {
  return {
    servers: serverUrls(currentConfig().bus.server_url),
    creds: operatorKeys(app).systemUserCreds,
    subject,
    payload,
    timeoutMs: SYSTEM_REQUEST_TIMEOUT_MS,
  };
}
