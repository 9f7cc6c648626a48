/// <reference path="../../build/types/types.d.ts" />
// The routes only the running sidecar calls (under /api/platform/: the readiness prober's, its start
// announcement, the news of a hub node back): anyone else gets the 404 of a path that does not exist.
import { notFound } from "./errors";
import { requestOf } from "./events";
import { isSidecarAuthorization } from "./sidecar";

export function requireSidecarCaller(e: core.RequestEvent): void {
  if (!isSidecarAuthorization(requestOf(e).header.get("Authorization"))) throw notFound("The requested resource wasn't found.");
}
