// HTTP glue of the overlay routes (spec 4.2 GET /api/org/overlay/cert-audit, POST /api/org/overlay-ca/rotate;
// docs/overlay.md "cert-audit", "CA rotation").
import type { CertAudit } from "../../common/overlay/cert-audit";
import { currentConfig } from "../config/runtime";
import { findAll, findRecord } from "../lib/collections";
import { forbidden } from "../lib/errors";
import { oneOfStrings, requiredString } from "../lib/body";
import { readJsonObject, respond } from "../lib/request";
import { MANAGERS } from "../lib/roles";
import type { CollectionNames } from "../schema/names";
import { collectionNames } from "../schema/names";
import { activeMembership } from "../tenancy/active";
import { certificateStale } from "./audit";
import { certificateFromPem } from "./cert";
import { rotateOverlayCa } from "./rotation";
import { ROTATION_STEPS } from "../../common/overlay/rotation";

/** POST /api/org/overlay-ca/rotate (owner/admin): `{step}`; a refused transition's message verbatim on a 400. */
export function rotateCaRoute(e: core.RequestEvent): void {
  respond(e, () => {
    const config = currentConfig();
    const n = collectionNames(config);
    const caller = activeMembership(e.app, n, e.auth);
    // The role before the body: a caller who may not act learns nothing about what a valid body looks like.
    if (!MANAGERS.includes(caller.role)) throw forbidden("rolling the overlay CA needs the owner or admin role");
    const step = oneOfStrings(requiredString(readJsonObject(e), "step"), ROTATION_STEPS, "step");
    return { status: 200, body: rotateOverlayCa(e.app, n, config, caller, step) };
  });
}

/** GET /api/org/overlay/cert-audit (owner/admin) */
export function certAuditRoute(e: core.RequestEvent): void {
  respond(e, () => {
    const n = collectionNames(currentConfig());
    const caller = activeMembership(e.app, n, e.auth);
    if (!MANAGERS.includes(caller.role)) throw forbidden("the certificate audit needs the owner or admin role");
    e.response.header().set("Cache-Control", "no-store");
    const audit: CertAudit = { stale: staleHosts(e.app, n, caller.organization.id) };
    return { status: 200, body: audit };
  });
}

/**
 * Active hosts of the organization whose certificate's network no longer matches their network. A host
 * whose certificate or network cannot be read is left out; nothing is re-signed.
 */
export function staleHosts(app: CoreApp, n: CollectionNames, organizationId: string): string[] {
  const stale: string[] = [];
  const cidrs: Record<string, string | undefined> = {};
  for (const host of findAll(app, n.overlay_hosts, "organization = {:org} && active = true", { org: organizationId })) {
    const networkId = host.getString("network");
    if (!(networkId in cidrs)) {
      const network = findRecord(app, n.overlay_networks, networkId);
      cidrs[networkId] = network && network.getString("organization") === organizationId ? network.getString("cidr") : undefined;
    }
    const cidr = cidrs[networkId];
    if (cidr === undefined) continue;
    let networks: string[];
    try {
      networks = certificateFromPem(host.getString("cert")).details.networks;
    } catch {
      continue;
    }
    if (certificateStale(networks, cidr, host.getString("overlay_ip")) === true) stale.push(host.id);
  }
  return stale;
}
