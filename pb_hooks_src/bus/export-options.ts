// What `bus export` writes, from its flags, the platform configuration and the operator row (pure).
import type { ServerConfigInput } from "./server-config";
import { ServerConfigError } from "./server-config";
import { serverUrlPort } from "./server-port";

/** The folder `bus export` fills; paths in the config are relative to it, so it can move as a whole. */
export const EXPORT_LAYOUT = { config: "bus.conf", resolverDir: "resolver", jetstreamDir: "jetstream" } as const;

export const EXPORT_DEFAULTS = {
  websocketPort: 9222,
  leafnodePort: 7422,
  monitorPort: 8222,
  host: "127.0.0.1",
  monitorHost: "127.0.0.1",
} as const;

/** The command's flags as typed; empty means "use the default". */
export interface ExportFlags {
  /** The folder to write; required. */
  out: string;
  port: string;
  websocketPort: string;
  leafnodePort: string;
  monitorPort: string;
  host: string;
  monitorHost: string;
  domain: string;
  serverName: string;
}

/** The public parts of the bus_system_operator row; seeds and the system user's creds are never read. */
export interface OperatorRow {
  operatorJwt: string;
  systemAccountPub: string;
  systemAccountJwt: string;
}

export function exportInput(flags: ExportFlags, config: { serverUrl: string; persistDomain: string }, operator: OperatorRow): ServerConfigInput {
  const domain = flags.domain || config.persistDomain;
  return {
    serverName: flags.serverName || `bus-${domain}`,
    host: flags.host || EXPORT_DEFAULTS.host,
    port: flags.port ? portFlag("--port", flags.port) : serverUrlPort(config.serverUrl),
    websocketPort: flags.websocketPort ? portFlag("--websocket-port", flags.websocketPort) : EXPORT_DEFAULTS.websocketPort,
    leafnodePort: flags.leafnodePort ? portFlag("--leafnode-port", flags.leafnodePort) : EXPORT_DEFAULTS.leafnodePort,
    monitorHost: flags.monitorHost || EXPORT_DEFAULTS.monitorHost,
    monitorPort: flags.monitorPort ? portFlag("--monitor-port", flags.monitorPort) : EXPORT_DEFAULTS.monitorPort,
    operatorJwt: operator.operatorJwt,
    systemAccountPub: operator.systemAccountPub,
    systemAccountJwt: operator.systemAccountJwt,
    resolverDir: EXPORT_LAYOUT.resolverDir,
    jetstreamDir: EXPORT_LAYOUT.jetstreamDir,
    domain,
  };
}

function portFlag(name: string, value: string): number {
  const port = /^\d{1,5}$/.test(value) ? Number(value) : NaN;
  if (!(port >= 1 && port <= 65535)) throw new ServerConfigError(`${name} ${JSON.stringify(value)} must be a port between 1 and 65535`);
  return port;
}
