// Gateway mode of `agent run` (gateway.enabled): the site's leaf server. The leaf config comes from
// GET /api/me/leaf-config (the Thing's session, kept fresh by platform sync), is re-read every
// gateway.leaf_config_interval and on every uplink reconnect, and a new account token reaches the running
// leaf by a rewrite of its preload and a reload; the leaf runs as a managed child, restarted when it dies.
// A leaf configured earlier starts at once from its files, before the platform answers: an islanded site
// keeps working across an agent restart.
import { parseDuration } from "../../../common/config/duration";
import type { Check, CheckOutcome } from "../health/check";
import { readSession } from "../platform/session";
import type { PlatformComponent } from "../platform/component";
import { PlatformError } from "../platform/client";
import type { AgentContext, Component } from "../component";
import { hubLeafAddress, localLeafUrl } from "./addresses";
import { applyLeafConfig, readApplied } from "./apply";
import { busLocalCheck, combinedOutcome, hubUplinkCheck, leafConfigOutcome, type RefreshStatus } from "./checks";
import { fetchLeafConfig } from "./leaf-config";
import { jitteredDelay } from "../platform/spread";
import { leafFiles, type LeafPlaces } from "./leaf-files";
import { startLeafProcess } from "./leaf-process";
import { registerEdgeMetrics } from "./metrics";
import { leafMonitor } from "./monitor";
import { answers } from "./probe";
import { startUplinkWatch } from "./uplink";

export interface GatewayComponent extends Component {
  /** The local leaf's client URL: the agent's own bus connection and the kv sync dial it. */
  readonly localUrl: string;
  /** The hub's JetStream domain the leaf was configured with (spec 9.5: cached); undefined before that. */
  hubDomain(): string | undefined;
  /** Reads the leaf configuration now (a change notice); a request during a read runs once more after it. */
  refreshLeafConfig(reason: string): void;
  /** True while the leaf reports its uplink to the hub connected. */
  uplinkUp(): boolean;
  onUplinkChange(listener: (up: boolean) => void): void;
  /** Adds a part to the `sync` check (the kv sync's outcome); the check reports the worst part. */
  addSyncPart(part: Check): void;
}

/** The command that re-runs the leaf configuration, as the sync check's fix names it. */
export const reconfigureCommand = (stateDir: string) => `agent gateway reconfigure --state-dir ${stateDir}`;

const LOCAL_LOOK_MS = 1_000;

export function startGateway(context: AgentContext, platform: PlatformComponent): GatewayComponent {
  const { config, paths, logger, health } = context;
  const gateway = config.gateway;
  const places: LeafPlaces = { files: leafFiles(config.state_dir), listen: gateway.listen, monitorPort: gateway.monitor_port };
  const localUrl = localLeafUrl(gateway.listen);
  const local = new URL(localUrl);
  const leafServes = () => answers(local.hostname.replace(/^\[(.*)\]$/, "$1"), Number(local.port), { timeoutMs: LOCAL_LOOK_MS, greeting: "INFO" });
  const leaf = startLeafProcess({ natsServer: gateway.nats_server, configPath: places.files.config, logger });
  const monitor = leafMonitor(gateway.monitor_port);
  let applied = readApplied(places);
  const uplink = startUplinkWatch({
    monitor,
    leaf,
    hubAddress: () => (applied ? hubLeafAddress(applied.hub_leaf_url) : undefined),
    absentMs: parseDuration(gateway.uplink_restart_after),
    logger,
  });

  const refreshStatus: RefreshStatus = { drift: [] };
  const syncParts: Check[] = [];
  health.register(busLocalCheck(leaf, localUrl, leafServes));
  health.register(hubUplinkCheck(leaf, uplink, () => applied?.hub_leaf_url));
  health.register({
    name: "sync",
    async run() {
      const own = leafConfigOutcome(refreshStatus, reconfigureCommand(config.state_dir));
      const others = await Promise.all(syncParts.map((part) => part.run().catch((err: unknown): CheckOutcome => ({ state: "warn", detail: `${part.name}: ${(err as Error).message}` }))));
      return combinedOutcome([own, ...others]);
    },
  });
  registerEdgeMetrics(context.metrics.registry, leafServes, monitor);

  if (applied) {
    logger.info("gateway: starting the leaf from its last configuration", { config: places.files.config });
    leaf.ensureRunning();
  }

  let etag: string | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let reportedDrift = "";
  let reportedFailure = "";

  async function refreshOnce(): Promise<void> {
    let session;
    try {
      session = readSession(paths.session);
    } catch {
      session = undefined; // platform sync reports a damaged session
    }
    if (!session) return;
    // After a reconfigure (applied.json removed) the whole answer is needed, not a 304.
    applied = readApplied(places);
    let answer;
    try {
      answer = await fetchLeafConfig(session.platform, session.token, applied ? etag : undefined);
    } catch (err) {
      const status = err instanceof PlatformError ? err.status : -1;
      const message = (err as Error).message;
      refreshStatus.failure = { status, message, at: Date.now() };
      if (message !== reportedFailure) logger.warn("gateway: the leaf configuration could not be read", { status, error: message });
      reportedFailure = message;
      return;
    }
    if (refreshStatus.failure) logger.info("gateway: the leaf configuration is read again", {});
    refreshStatus.failure = undefined;
    reportedFailure = "";
    refreshStatus.lastSuccessAt = Date.now();
    if (!answer.changed) return;
    const result = applyLeafConfig(places, answer.config);
    etag = answer.etag;
    applied = readApplied(places);
    refreshStatus.drift = result.drift;
    const drift = result.drift.join(",");
    if (drift !== reportedDrift && drift !== "") {
      logger.warn("gateway: the hub's leaf configuration changed; not applied", { fields: drift, fix: reconfigureCommand(config.state_dir) });
    }
    reportedDrift = drift;
    if (result.configured) {
      logger.info("gateway: leaf configured", { domain: answer.config.domain, hub_leaf_url: answer.config.hub_leaf_url, hub_domain: answer.config.hub_domain });
      if (leaf.state().running) await leaf.restart("the leaf configuration was written anew");
      else leaf.ensureRunning();
      return;
    }
    if (result.credsChanged) logger.info("gateway: new uplink credentials written (used at the uplink's next connect)", {});
    if (result.reload) leaf.reload("the account token changed (a revocation, a suspension or a restore)");
    leaf.ensureRunning();
  }

  /** One refresh at a time; a request during one runs once more after it. */
  function refresh(reason: string): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    logger.debug("gateway: reading the leaf configuration", { reason });
    running = refreshOnce()
      .catch((err: unknown) => {
        refreshStatus.failure = { status: -1, message: (err as Error).message, at: Date.now() };
        logger.error("gateway: the leaf configuration could not be applied", { error: (err as Error).message });
      })
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          refresh("requested during a refresh");
        }
      });
  }

  const intervalMs = parseDuration(gateway.leaf_config_interval);
  const tick = () => {
    refresh("interval");
    timer = setTimeout(tick, jitteredDelay(intervalMs, Math.random));
  };
  uplink.onChange((up) => {
    if (up) refresh("uplink reconnected");
  });
  platform.whenSyncing(() => {
    if (!stopped && timer === undefined) tick();
  });

  return {
    name: "gateway",
    localUrl,
    hubDomain: () => applied?.hub_domain,
    refreshLeafConfig: refresh,
    uplinkUp: () => uplink.up(),
    onUplinkChange: (listener) => uplink.onChange(listener),
    addSyncPart: (part) => void syncParts.push(part),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      uplink.stop();
      await running;
      await leaf.stop();
    },
  };
}
