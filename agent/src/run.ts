// `agent run`: the composition root. Loads the config, then starts the health registry, the
// observability listener and the system telemetry, then the platform, bus and overlay components
// (startComponents). SIGTERM or SIGINT stops everything in reverse order and exits 0.
import { mkdir } from "node:fs/promises";
import { parseDuration } from "../../common/config/duration";
import type { AgentContext, Component } from "./component";
import { loadAgentConfig, type AgentConfigSources } from "./config/load";
import type { AgentCheckName } from "./health/checks";
import { HealthRegistry } from "./health/registry";
import { createAgentMetrics } from "./http/metrics";
import { startObservabilityServer } from "./http/server";
import type { Logger } from "./lib/log";
import { startBus } from "./bus/component";
import { startGateway } from "./gateway/component";
import { startGatewayKv } from "./gateway/kv/component";
import { startOverlay } from "./overlay/component";
import { startPlatform } from "./platform/component";
import { listenForNotices } from "./platform/notices";
import { readIfPresent } from "./lib/files";
import type { Notice } from "../../common/bus/notices";
import { statePaths } from "./state-paths";
import { startSystemTelemetry, taskMetricsCheck } from "./telemetry/system";
import { AGENT_VERSION } from "./version";

/**
 * The components after the core, in order: platform sync first (the others subscribe to it), then a
 * gateway's leaf (the bus connection dials it), the bus, the gateway's key-value sync (over the bus
 * connection) and the overlay; sync begins only once all have
 * subscribed, so none misses the first credentials it hands over.
 */
async function startComponents(context: AgentContext, started: Component[]): Promise<void> {
  const platform = startPlatform(context);
  started.push(platform);
  const gateway = context.config.gateway.enabled ? startGateway(context, platform) : undefined;
  if (gateway) started.push(gateway);
  const bus = startBus(context, platform);
  started.push(bus);
  if (gateway) started.push(startGatewayKv(context, gateway, bus));
  started.push(await startOverlay(context, platform));
  // Change notices ride every bus connection: each starts what the next poll would have done.
  if (context.config.bus.creds === "") {
    platform.whenSyncing((sync) =>
      bus.onConnected((nc) => {
        const creds = readIfPresent(context.paths.busCreds);
        if (creds === undefined) return;
        const syncNow = (notice: Notice) => void sync.noticed(`notice: ${notice.changed} changed`);
        listenForNotices(nc, creds, {
          own: (notice) => {
            syncNow(notice);
            gateway?.refreshLeafConfig(`notice: ${notice.changed} changed`);
          },
          account: gateway ? (notice) => gateway.refreshLeafConfig(`notice: ${notice.changed} changed`) : undefined,
          overlay: context.config.overlay.enabled ? syncNow : undefined,
        }, context.logger);
      }),
    );
  }
  platform.begin();
}

/** Runs until SIGTERM/SIGINT; answers the exit status. Throws ConfigError when the config is refused. */
export async function runAgent(sources: AgentConfigSources, logger: Logger): Promise<number> {
  // From the first moment: a SIGTERM during start must stop cleanly too, not kill the process.
  const stopping = stopSignal();
  survivePeerResets(logger);
  const config = loadAgentConfig(sources);
  const paths = statePaths(config.state_dir);
  logger.info("agent starting", { version: AGENT_VERSION, state_dir: config.state_dir, pid: process.pid });
  await ensureStateDir(config.state_dir, logger);

  const health = new HealthRegistry<AgentCheckName>({ version: AGENT_VERSION, intervalMs: parseDuration(config.observability.interval), logger });
  const metrics = createAgentMetrics(health, AGENT_VERSION);
  const telemetry = config.telemetry.enabled
    ? startSystemTelemetry({ intervalMs: parseDuration(config.telemetry.interval), diskPaths: [...new Set(["/", config.state_dir])], logger })
    : undefined;
  health.register(taskMetricsCheck(telemetry?.telemetry));
  const server = await startObservabilityServer({
    addr: config.observability.addr,
    metricsToken: config.observability.metrics_token,
    readiness: health,
    metrics,
    logger,
  });

  const context: AgentContext = { config, paths, logger, health, metrics, telemetry };
  const started: Component[] = [];
  const stopAll = async () => {
    for (const component of started.reverse()) {
      await component.stop().catch((err: unknown) => logger.error("component did not stop cleanly", { component: component.name, error: (err as Error).message }));
    }
    health.stop();
    telemetry?.stop();
    await server.close();
  };
  try {
    await startComponents(context, started);
  } catch (err) {
    logger.error("agent could not start a component", { error: (err as Error).message });
    await stopAll();
    return 1;
  }
  health.start();

  const signal = await stopping;
  logger.info("agent stopping", { signal });
  await stopAll();
  logger.info("agent stopped");
  return 0;
}

/**
 * The NATS client can surface a write to a socket the hub has just closed (a refused connect, a revoked
 * credential) as an uncaught EPIPE/ECONNRESET, outside any promise the connection loop awaits. The loop
 * already handles the close itself, so those are logged and survived; anything else still ends the process.
 */
function survivePeerResets(logger: Logger): void {
  process.on("uncaughtException", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE" || err.code === "ECONNRESET") {
      logger.warn("connection reset by peer", { code: err.code });
      return;
    }
    logger.error("agent crashed", { error: err.message });
    process.exit(1);
  });
}

/** Resolves with the first SIGTERM or SIGINT; a second one while stopping ends the process at once. */
function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      process.removeListener("SIGTERM", onSignal);
      process.removeListener("SIGINT", onSignal);
      process.once("SIGTERM", () => process.exit(1));
      process.once("SIGINT", () => process.exit(1));
      resolve(signal);
    };
    process.on("SIGTERM", onSignal);
    process.on("SIGINT", onSignal);
  });
}

/** The components write there; an unenrolled agent may not have it yet. A failure is theirs to report. */
async function ensureStateDir(dir: string, logger: Logger): Promise<void> {
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    logger.warn("state_dir could not be created", { state_dir: dir, error: (err as Error).message });
  }
}
