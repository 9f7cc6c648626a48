// The small library of what runs before PocketBase listens: the loader VM's registrations (main.pb.ts's
// top level, the platform's commands) and serve's onBootstrap, bundled to pb_hooks/lib/loader.js. The
// full library (platform.ts) is compiled by the first handler that needs it, once the listener is open:
// compiling it in the loader took ~50 ms of every start (docs/performance.md "Start and footprint").
import { startEmbeddedIfEnabled } from "./bus/embedded";
import { startReplicationIfWanted } from "./replication/process";
import { startSidecarWithServe } from "./lib/sidecar";
import { markStarted, proberSettings } from "./observability/readiness/platform";
import { turnOffInstaller } from "./tenancy/installer";
import { currentConfig } from "./config/runtime";
import { schemaVersion } from "./observability/readiness/checks/schema-version";

export { start } from "./startup";
export { hookTags } from "./hooks";
export { stopSidecar } from "./lib/sidecar";
export { embeddedBusWanted } from "./bus/embedded";
export { replicationWanted } from "./replication/process";
export { POCKETBASE_OPTIMIZE_JOB, POCKETBASE_OPTIMIZE_SCHEDULE } from "./replication/optimize-job";
export { auditCollectionName, mirrorsToConsole, verboseCollections } from "./audit/handlers";
export { RETENTION_JOB, retentionSchedule } from "./audit/retention-job";
export { RECONCILE_JOB, RECONCILE_SCHEDULE } from "./bus/reconcile";
export { WATCHDOG_JOB, WATCHDOG_SCHEDULE } from "./observability/readiness/platform";
export { enabled as metricsEnabled } from "./observability/metrics/platform";

/**
 * serve's onBootstrap: the uptime's start; the embedded nats-server (`serve --bus`), which answers before
 * bootstrap returns (or refuses the start); Litestream's supervisor (replication.enabled), not waited for; the installer's placeholder SuperUser removed
 * (tenancy/installer.ts) and a database newer than this release named; then the sidecar's Node process,
 * spawned and not waited for. In that order because Node's start takes a core for ~40 ms, which
 * nats-server's start, waited for, would otherwise share. Every bus account converges later, at
 * platform.ts#startedRoute.
 */
export function startServing(app: CoreApp): void {
  markStarted();
  startEmbeddedIfEnabled(app);
  startReplicationIfWanted(app);
  if ($os.args.includes("serve")) {
    turnOffInstaller(app);
    warnNewerDatabase(app);
  }
  startSidecarWithServe(proberSettings);
}

/**
 * A database a newer release migrated (a downgrade) is said at start, not only by /api/ready's
 * schema_version check: serve starts anyway, as the check's fix may be to run the newer release.
 */
function warnNewerDatabase(app: CoreApp): void {
  const outcome = schemaVersion({ app, config: currentConfig(), nowMs: Date.now(), timeoutMs: 0 });
  if (outcome.state !== "ok") console.warn(`serve: ${outcome.detail}. ${outcome.fix}`);
}
