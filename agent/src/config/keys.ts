// The agent's configuration keys (agent.yaml, AGENT_* variables): the same table shape, readers and
// mapping rule as the control plane's PLATFORM_* keys (common/config/key-table.ts).
import { DEFAULT_SUBJECT_PREFIX } from "../../../common/bus/agent-subjects";
import { keyTable, type KeySpecs, type Paths } from "../../../common/config/key-table";
import type { AgentConfig } from "./types";

export type AgentKey = Paths<AgentConfig>;

const KEYS: KeySpecs<AgentConfig> = {
  state_dir: { type: "string", default: "/var/lib/iot-agent", meaning: "Directory of the session, the creds file and the overlay config (0600 files)." },
  "observability.addr": { type: "string", default: "127.0.0.1:9100", meaning: "host:port of /ready and /metrics; empty: no listener, checks still run and log." },
  "observability.metrics_token": { type: "string", default: "", meaning: "Token /metrics requires (Bearer, or Basic with any user name); empty: open.", secret: true },
  "observability.interval": { type: "string", default: "15s", meaning: "Duration between probes of every check." },
  "platform.sync_interval": { type: "string", default: "15m", meaning: "Duration between re-reads of the Thing's bus identity and overlay host (±20% jitter); the fallback when a change notice is missed." },
  "bus.servers": { type: "string-list", default: [], meaning: "Hub URLs (nats://, tls:// or bus://), separated by spaces; empty: the platform host, port 4222." },
  "bus.creds": { type: "string", default: "", meaning: "Creds file managed outside the platform; set: the platform does not sync bus credentials." },
  "bus.subject_prefix": { type: "string", default: DEFAULT_SUBJECT_PREFIX, meaning: "First subject tokens of everything the agent publishes and answers." },
  "bus.heartbeat_interval": { type: "string", default: "15s", meaning: "Duration between heartbeats." },
  "telemetry.enabled": { type: "bool", default: true, meaning: "System metrics (CPU, memory, disks, load); off: the task_metrics check is skipped." },
  "telemetry.interval": { type: "string", default: "15s", meaning: "Duration between system metric samples." },
  "overlay.enabled": { type: "bool", default: true, meaning: "Runs nebula when the Thing has an overlay host; off: the overlay check is skipped." },
  "overlay.nebula": { type: "string", default: "nebula", meaning: "The nebula binary (a path, or a name looked up in PATH)." },
  "overlay.handshake_timeout": { type: "string", default: "30s", meaning: "A new overlay config with no lighthouse handshake within this long is rolled back." },
  "gateway.enabled": { type: "bool", default: false, meaning: "Site gateway: run a leaf server (nats-server) for local devices, configured from GET /api/me/leaf-config." },
  "gateway.nats_server": { type: "string", default: "nats-server", meaning: "The nats-server binary (a path, or a name looked up in PATH)." },
  "gateway.listen": { type: "string", default: "0.0.0.0:4222", meaning: "host:port local devices connect to (the leaf's client port)." },
  "gateway.monitor_port": { type: "int", default: 8222, meaning: "The leaf's monitoring port, on loopback only; 0: none." },
  "gateway.leaf_config_interval": { type: "string", default: "10m", meaning: "Duration between re-reads of the leaf configuration (±20% jitter; also read on every uplink reconnect); the fallback when a change notice is missed." },
  "gateway.uplink_restart_after": { type: "string", default: "5m", meaning: "Uplink absent this long while the hub's leaf port accepts: reload the leaf, then restart it." },
  "gateway.kv.mirrors": { type: "string-list", default: [], meaning: "Key-value buckets copied hub → site, separated by spaces." },
  "gateway.kv.relays": { type: "string-list", default: [], meaning: "Key-value buckets relayed site → hub (deletes too), separated by spaces." },
};

export const AGENT_KEYS = keyTable<AgentConfig>("AGENT", KEYS);
