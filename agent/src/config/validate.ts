// Refuses agent configurations the agent must not start with, and normalizes the platform's bus:// alias
// of hub URLs to nats://.
import { positiveDurationProblem } from "../../../common/config/duration";
import { ConfigError } from "../../../common/config/errors";
import type { AgentKey } from "./keys";
import type { AgentConfig } from "./types";

const DURATION_KEYS = [
  "observability.interval",
  "platform.sync_interval",
  "bus.heartbeat_interval",
  "telemetry.interval",
  "overlay.handshake_timeout",
  "gateway.leaf_config_interval",
  "gateway.uplink_restart_after",
] as const satisfies readonly AgentKey[];

/** The config with aliases normalized; throws ConfigError on the first refused value. */
export function validateAgentConfig(config: AgentConfig, describe: (key: AgentKey) => string = (key) => key): AgentConfig {
  const fail = (key: AgentKey, problem: string): never => {
    throw new ConfigError(`${describe(key)} ${problem}`);
  };
  if (config.state_dir === "") fail("state_dir", "must not be empty");
  const addr = config.observability.addr;
  if (addr !== "" && listenAddress(addr) === undefined) {
    fail("observability.addr", `must be empty or host:port with a port from 0 to 65535, got ${JSON.stringify(addr)}`);
  }
  if (listenAddress(config.gateway.listen) === undefined) {
    fail("gateway.listen", `must be host:port with a port from 0 to 65535, got ${JSON.stringify(config.gateway.listen)}`);
  }
  const monitorPort = config.gateway.monitor_port;
  if (!Number.isInteger(monitorPort) || monitorPort < 0 || monitorPort > 65535) fail("gateway.monitor_port", `must be a port from 0 to 65535 (0: none), got ${monitorPort}`);
  const both = config.gateway.kv.mirrors.find((bucket) => config.gateway.kv.relays.includes(bucket));
  if (both !== undefined) fail("gateway.kv.relays", `and gateway.kv.mirrors both name bucket ${JSON.stringify(both)}: a bucket is either mirrored or relayed`);
  for (const key of DURATION_KEYS) {
    const problem = positiveDurationProblem(durationAt(config, key));
    if (problem !== undefined) fail(key, problem);
  }
  const servers = config.bus.servers.map((url) => {
    const normalized = hubUrl(url);
    return normalized ?? fail("bus.servers", `entry ${JSON.stringify(url)} must be one URL starting with nats://, tls:// or bus://`);
  });
  if (!/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(config.bus.subject_prefix)) {
    fail("bus.subject_prefix", `must be dot-separated tokens of letters, digits, "_" and "-" (no wildcards), got ${JSON.stringify(config.bus.subject_prefix)}`);
  }
  if (config.overlay.nebula === "") fail("overlay.nebula", "must not be empty");
  return { ...config, bus: { ...config.bus, servers } };
}

/** host and port of `host:port` (`[::1]:9100` for IPv6), or undefined when it is not one. */
export function listenAddress(addr: string): { host: string; port: number } | undefined {
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([^\s:[\]]*)):(\d{1,5})$/.exec(addr);
  if (!match) return undefined;
  const port = Number(match[3]);
  if (port > 65535) return undefined;
  return { host: match[1] ?? match[2], port };
}

function hubUrl(url: string): string | undefined {
  if (/[\s,]/.test(url)) return undefined;
  if (url.startsWith("bus://") && url.length > "bus://".length) return `nats://${url.slice("bus://".length)}`;
  return ["nats://", "tls://"].some((scheme) => url.startsWith(scheme) && url.length > scheme.length) ? url : undefined;
}

function durationAt(config: AgentConfig, key: (typeof DURATION_KEYS)[number]): string {
  const [section, name] = key.split(".") as [keyof AgentConfig, string];
  return (config[section] as unknown as Record<string, string>)[name];
}
