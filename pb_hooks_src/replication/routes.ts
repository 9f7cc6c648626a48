// HTTP glue of replication.
import { badRequest } from "../lib/errors";
import { readJsonObject, respond } from "../lib/request";
import { requireSidecarCaller } from "../lib/sidecar-caller";
import { recordLeaseReport } from "./lease";

/** POST /api/platform/lease (the sidecar only): the write lease's state after its latest attempt. */
export function leaseRoute(e: core.RequestEvent): void {
  respond(e, () => {
    requireSidecarCaller(e);
    if (!recordLeaseReport(e.app, readJsonObject(e))) throw badRequest("not a lease report");
    return { status: 200, body: { ok: true } };
  });
}
