// HTTP glue of the tenancy routes.
import { readJsonObject, respond } from "../lib/request";
import { forbidden } from "../lib/errors";
import { currentConfig } from "../config/runtime";
import { collectionNames } from "../schema/names";
import type { ClientConfig } from "../../common/tenancy/client-config";
import { acceptInvite } from "./invites";

/** POST /api/org/invites/accept */
export function acceptInviteRoute(e: core.RequestEvent): void {
  respond(e, () => {
    const n = collectionNames(currentConfig());
    if (!e.auth || e.auth.collection().name !== n.users) throw forbidden("only user accounts can accept invitations");
    const body = readJsonObject(e);
    return { status: 200, body: acceptInvite(e.app, n, e.auth, body, new Date()) };
  });
}

/** GET /api/client-config: deployment facts for the console, never derived from bus.server_url. */
export function clientConfigRoute(e: core.RequestEvent): void {
  e.response.header().set("Cache-Control", "no-store");
  const config: ClientConfig = { natsWebsocketUrls: currentConfig().bus.websocket_urls };
  e.json(200, config);
}
