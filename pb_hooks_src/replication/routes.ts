// HTTP glue of replication.
import { badRequest } from "../lib/errors";
import { readJsonObject, respond } from "../lib/request";
import { requireSidecarCaller } from "../lib/sidecar-caller";
import { reconcileAtStart } from "../bus/reconcile";
import { recordLeaseReport } from "./lease";
import { startBusLitestream, stopReplication } from "./process";

/**
 * POST /api/platform/lease (the sidecar only): the write lease's state after its latest attempt. Taken,
 * serve's start work that writes follows (the hub's claims merged back, every account published) and
 * Litestream starts; lost, Litestream stops, so that only the holder ever writes into the replica.
 */
export function leaseRoute(e: core.RequestEvent): void {
  respond(e, () => {
    requireSidecarCaller(e);
    const change = recordLeaseReport(e.app, readJsonObject(e));
    if (!change) throw badRequest("not a lease report");
    if (change === "taken") {
      reconcileAtStart(e.app);
      startBusLitestream(e.app);
    } else if (change === "lost") {
      stopReplication(e.app);
    }
    return { status: 200, body: { ok: true } };
  });
}
