// The hooks library: everything the handlers of pb_hooks/main.pb.js and pb_migrations/ call, bundled to
// pb_hooks/lib/platform.js (what runs before PocketBase listens is loader.ts). Each namespace is one
// domain's PocketBase-facing glue.
import { currentConfig } from "./config/runtime";
import { applyPlatformSchema, removePlatformSchema, upgradePlatformSchema } from "./schema/apply";
import { syncEveryCurrentRole } from "./tenancy/current-role";
import { collectionNames } from "./schema/names";
import { takeWriteLock } from "./lib/transaction";
import { brandingRoute } from "./branding/route";
import { createThingRoute, ownIdentityRoute } from "./inventory/routes";
import { certAuditRoute, rotateCaRoute } from "./overlay/routes";
import { dateRevocations, revokeInactiveHosts } from "./overlay/revocation-backfill";
import { acceptInviteRoute, clientConfigRoute } from "./tenancy/routes";
import { stopEmbedded } from "./bus/embedded";
import { busReplicationWanted, holdLeaseIfWanted, releaseLease, stopReplication } from "./replication/process";
import { leaseRoute } from "./replication/routes";
import { optimizeWithoutCheckpoint } from "./replication/optimize-job";
import { reconcileAccounts, reconcileAtStart } from "./bus/reconcile";
import { leafConfigRoute, nodeBackRoute, rotateRoute, signClaimRoute, signingKeysRoute, upkeepRoute } from "./bus/routes";
import { markUnexpiringCredentials } from "./bus/upkeep";
import { assignNoticeSlots } from "./bus/notices";
import { signAllPendingRevocations } from "./bus/effects";
import { answerStarted } from "./observability/readiness/platform";
import { allowCaseVariantMailboxes, requireUniqueMailboxes } from "./tenancy/email-migration";


/**
 * POST /api/platform/started, the sidecar's first call once PocketBase listens: serve's start work that
 * needs the sidecar runs here rather than in bootstrap, so the listener does not wait for Node's start.
 */
export function startedRoute(e: core.RequestEvent): void {
  // With replication into the bus, the start work that writes waits for the write lease (replication/routes.ts).
  answerStarted(e, (app) => {
    if (busReplicationWanted(app)) holdLeaseIfWanted(app);
    else reconcileAtStart(app);
  });
}

/**
 * Every minute: every account converges to its recorded state (by the write lease's holder only), and the
 * lease is asked for again if the bus was not there for serve's start.
 */
export function reconcileJob(app: CoreApp): void {
  reconcileAccounts(app);
  holdLeaseIfWanted(app);
}

export const schema = {
  up: (app: CoreApp) => applyPlatformSchema(app, collectionNames(currentConfig())),
  down: (app: CoreApp) => removePlatformSchema(app, collectionNames(currentConfig())),
  // Migrations 1764000004 and 1764000006: users.current_role and current_scope with their backfill, the
  // rules reading them, the organization indexes.
  upgrade: (app: CoreApp) => {
    const n = collectionNames(currentConfig());
    takeWriteLock(app);
    upgradePlatformSchema(app, n);
    syncEveryCurrentRole(app, n);
  },
};
// users.email unique up to ASCII letter case (pb_migrations/1764000001_users_email_nocase.js).
export const uniqueMailboxes = {
  up: (app: CoreApp) => requireUniqueMailboxes(app, collectionNames(currentConfig())),
  down: (app: CoreApp) => allowCaseVariantMailboxes(app, collectionNames(currentConfig())),
};

// Overlay hosts saved inactive before the CA's list became the served blocklist (pb_migrations/1764000005);
// entries stored before their certificates' expiries were kept (pb_migrations/1764000016).
export const overlayRevocations = {
  backfill: (app: CoreApp) => revokeInactiveHosts(app, collectionNames(currentConfig())),
  dateEntries: (app: CoreApp) => dateRevocations(app, collectionNames(currentConfig())),
};

export * as hooks from "./hooks";
export * as audit from "./audit/handlers";
export const routes = {
  clientConfig: clientConfigRoute,
  acceptInvite: acceptInviteRoute,
  createThing: createThingRoute,
  ownIdentity: ownIdentityRoute,
  branding: brandingRoute,
  certAudit: certAuditRoute,
  rotateOverlayCa: rotateCaRoute,
};

export const bus = {
  leafConfigRoute,
  rotateRoute,
  signingKeysRoute,
  nodeBackRoute,
  upkeepRoute,
  signClaimRoute,
  markUnexpiringCredentials,
  assignNoticeSlots: (app: CoreApp) => assignNoticeSlots(app, collectionNames(currentConfig())),
  signPendingRevocations: (app: CoreApp) => signAllPendingRevocations(app, collectionNames(currentConfig())),
};
// `serve --bus`: the nats-server child's stop (onTerminate; loader.ts#startServing starts it).
export const busServer = { stop: stopEmbedded };
// replication.enabled under serve: Litestream's stop (onTerminate; loader.ts#startServing starts it).
export const replication = {
  /** serve's stop: Litestream's last upload, then the lease let go. */
  stop: (app: CoreApp) => {
    stopReplication(app);
    releaseLease(app);
  },
  leaseRoute,
  optimize: optimizeWithoutCheckpoint,
};

export * as readiness from "./observability/readiness/platform";
export * as metrics from "./observability/metrics/platform";
