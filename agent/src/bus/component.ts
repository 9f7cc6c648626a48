// The bus side of `agent run`: the connection to the hub with the Thing's creds, the bus and persistence
// checks, heartbeat and telemetry, and the commands. Creds come from platform sync (the file enrollment
// wrote, then each one sync adopts; an authorization error from the hub asks sync to look at once) or,
// with bus.creds set, from that file. Before enrollment the bus check fails with the remedy. A gateway's
// connection dials its own local leaf instead of the hub, so it keeps working while the site is islanded.
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { parseDuration } from "../../../common/config/duration";
import { localLeafUrl } from "../gateway/addresses";
import { readIfPresent } from "../lib/files";
import type { PlatformComponent } from "../platform/component";
import { readSession } from "../platform/session";
import type { PlatformSync } from "../platform/sync";
import type { AgentContext, Component } from "../component";
import { busCheck, persistenceCheck } from "./checks";
import { startCommands } from "./commands";
import { startBusConnection, type BusConnection, type BusState } from "./connection";
import type { NatsConnection } from "@nats-io/transport-node";
import { createPersistenceProbe, type PersistenceProbe, type PersistenceView } from "./persistence";
import { startPublishing } from "./publishing";
import { busServers } from "./servers";
import { agentSubjects } from "../../../common/bus/agent-subjects";

/** Bounds the persistence check's look, inside the registry's 2 s per check. */
const PERSISTENCE_LOOK_MS = 1_500;

export interface BusComponent extends Component {
  /** The open connection, if any (the gateway's kv sync works over it). */
  current(): NatsConnection | undefined;
  /** Runs on every new connection (subscriptions live and die with their connection). */
  onConnected(listener: (nc: NatsConnection) => void): void;
}

export function startBus(context: AgentContext, platform: PlatformComponent): BusComponent {
  const { config, paths, logger, health } = context;
  const startedAt = new Date();
  let running: { connection: BusConnection; probe: PersistenceProbe; stopPublishing(): void } | undefined;
  // Why there is no connection yet (not enrolled, or a config the hub cannot be derived from).
  let waiting: BusState = { connected: false, kind: "no_creds", reason: "not enrolled: no bus credentials yet", since: Date.now() };
  const telemetryOfAll = `${config.bus.subject_prefix}.*.telemetry`;
  const current = { state: () => running?.connection.state() ?? waiting, current: () => running?.connection.current() };
  // Listeners added before the connection exists are handed to it when it starts.
  const connectedListeners: ((nc: NatsConnection) => void)[] = [];
  health.register(busCheck(current, config.gateway.enabled ? "leaf" : "hub"));
  // The check skips before looking while there is no connection, so `running` is set whenever it looks.
  const look = (nc: NatsConnection): Promise<PersistenceView> => running?.probe.look(nc) ?? Promise.resolve({ usable: false, reason: "not connected" });
  health.register(persistenceCheck(current, { look }, telemetryOfAll));

  const connect = (code: string, platformUrl: string | undefined, sync: PlatformSync | undefined): BusConnection | undefined => {
    let servers: string[];
    let subjects: ReturnType<typeof agentSubjects>;
    try {
      servers = config.gateway.enabled ? [localLeafUrl(config.gateway.listen)] : busServers(config.bus.servers, platformUrl);
      subjects = agentSubjects(config.bus.subject_prefix, code);
    } catch (err) {
      waiting = { connected: false, kind: "other", reason: (err as Error).message, since: Date.now() };
      logger.error("bus: cannot start", { error: (err as Error).message });
      return undefined;
    }
    const probe = createPersistenceProbe(subjects.telemetry, PERSISTENCE_LOOK_MS);
    const connection = startBusConnection({
      servers,
      name: code,
      logger,
      onAuthError: () => void sync?.requestSync("the hub refused the bus credential"),
    });
    const telemetry = context.telemetry;
    const publishing = startPublishing({
      connection,
      subjects,
      probe,
      readiness: health,
      sample: telemetry ? async () => telemetry.telemetry.latest() ?? telemetry.telemetry.collect() : undefined,
      heartbeatMs: parseDuration(config.bus.heartbeat_interval),
      telemetryMs: parseDuration(config.telemetry.interval),
      startedAt,
      logger,
    });
    startCommands({
      connection,
      subjects,
      readiness: health,
      rotate: async () => {
        if (!sync) throw new Error("the bus credential is configured outside the platform (bus.creds): rotate it there");
        await sync.rotateBusCreds();
      },
      logger,
    });
    // /ready follows the bus both ways at once, not at the next probe (observability.interval): 200 when it
    // is up, 503 as soon as the connection ends.
    connection.onConnected(() => health.refresh());
    connection.onDisconnected(() => health.refresh());
    running = { connection, probe, stopPublishing: publishing.stop };
    for (const listener of connectedListeners) connection.onConnected(listener);
    logger.info("bus: connecting", { servers: servers.join(" "), subjects: `${config.bus.subject_prefix}.${code}.>` });
    return connection;
  };

  if (config.bus.creds !== "") {
    // Credentials managed outside the platform: the subjects take the enrolled code if any, else the host name.
    const session = readSession(paths.session);
    const connection = connect(session?.thing.code ?? hostname().split(".")[0], session?.platform, undefined);
    connection?.useCreds(readFileSync(config.bus.creds, "utf8"));
  } else {
    platform.whenSyncing((sync) => {
      const session = readSession(paths.session);
      if (!session) return;
      const connection = connect(session.thing.code, session.platform, sync);
      if (!connection) return;
      sync.onBusCreds((creds) => connection.useCreds(creds));
      const enrolled = readIfPresent(paths.busCreds);
      if (enrolled !== undefined) connection.useCreds(enrolled);
    });
  }
  return {
    name: "bus",
    current: current.current,
    onConnected(listener) {
      connectedListeners.push(listener);
      running?.connection.onConnected(listener);
    },
    stop: async () => {
      running?.stopPublishing();
      await running?.connection.stop();
    },
  };
}
