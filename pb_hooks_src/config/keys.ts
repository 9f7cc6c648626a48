// The one list of configuration keys (service spec 8.3, minus the agent's observability.* keys).
// Defaults, environment variable names, file checking and docs/configuration.md all come from it.
import { keyTable, type KeyInfo, type KeySpecs, type Paths } from "../../common/config/key-table";
import type { PlatformConfig } from "./types";

export const SERVICE_NAME = "iot-control-plane";

export type { ConfigValue, KeyInfo, KeyType } from "../../common/config/key-table";

export type ConfigKey = Paths<PlatformConfig>;

// Typed against PlatformConfig so the compiler refuses a missing key, an extra key or a wrong type.
const KEYS: KeySpecs<PlatformConfig> = {
  "tenancy.organizations_collection": { type: "string", default: "organizations", meaning: "Collection name of organizations." },
  "tenancy.memberships_collection": { type: "string", default: "memberships", meaning: "Collection name of memberships." },
  "tenancy.invites_collection": { type: "string", default: "invites", meaning: "Collection name of invitations." },
  "tenancy.invite_expiry_days": { type: "int", default: 7, meaning: "Days an invitation stays valid (1 to 3650)." },
  "bus.account_collection_name": { type: "string", default: "bus_accounts", meaning: "Collection name of bus accounts." },
  "bus.user_collection_name": { type: "string", default: "bus_users", meaning: "Collection name of bus users." },
  "bus.role_collection_name": { type: "string", default: "bus_roles", meaning: "Collection name of bus roles." },
  "bus.export_collection_name": { type: "string", default: "bus_account_exports", meaning: "Collection name of account exports." },
  "bus.import_collection_name": { type: "string", default: "bus_account_imports", meaning: "Collection name of account imports." },
  "bus.operator_name": {
    type: "string",
    default: `${SERVICE_NAME}.operator`,
    meaning: "Name stamped into the operator JWT at first run; changing it after first run is unsafe.",
  },
  "bus.server_url": {
    type: "string",
    default: "nats://localhost:4222",
    meaning: "Where the control plane dials as system-account client: one URL, or the nodes of one cluster separated by spaces; nats://, tls:// or bus:// (alias of nats://).",
  },
  "bus.websocket_urls": {
    type: "string-list",
    default: [],
    meaning: "Addresses a browser dials, served by /api/client-config; separated by spaces, never commas.",
  },
  "bus.leaf_url": {
    type: "string",
    default: "",
    meaning: "Where an edge leaf dials the hub (hub_leaf_url): nats-leaf://, tls:// or bus-leaf://; for a hub cluster one name with an address per node; empty: no edge box can bootstrap.",
  },
  "bus.persist_domain": {
    type: "string",
    default: "hub",
    meaning: "Hub's persistence domain (hub_domain); must match the bus server config.",
  },
  "bus.encryption_key": {
    type: "string",
    default: "",
    meaning: "Exactly 32 ASCII characters; encrypts minting keys at rest. Empty: plaintext.",
    secret: true,
  },
  "bus.managed_export_subject": {
    type: "string",
    default: "helpdesk.>",
    meaning: "Subject subtree a managed organization exports to the provider; must end in `.>`.",
  },
  "bus.log_to_console": { type: "bool", default: false, meaning: "Verbose bus logging: a line per committed write of a bus user or account, and per claim publication." },
  "bus.user_credential_lifetime": {
    type: "string",
    default: "720h",
    meaning: "Duration a bus user's credential is valid (2s to 87600h); the platform renews it with half of it left, and prunes a revocation entry once it has passed (docs/bus.md).",
  },
  "bus.default_limits.max_connections": { type: "int", default: 100, meaning: "New accounts' connection limit; -1 unlimited." },
  "bus.default_limits.max_subscriptions": { type: "int", default: 5000, meaning: "New accounts' subscription limit; -1 unlimited." },
  "bus.default_limits.max_payload": { type: "int", default: 1048576, meaning: "New accounts' message size limit in bytes (1 MiB); -1 unlimited." },
  "bus.default_limits.max_persist_disk_storage": {
    type: "int",
    default: 5368709120,
    meaning: "New accounts' persisted disk bytes (5 GiB); -1 unlimited, 0 disables persistence.",
  },
  "bus.default_limits.max_persist_memory_storage": {
    type: "int",
    default: 67108864,
    meaning: "New accounts' persisted memory bytes (64 MiB); -1 unlimited, 0 disables persistence.",
  },
  "bus.embedded": { type: "bool", default: false, meaning: "Run a bus server in-process (serve only); same as `--bus`." },
  "bus.embedded_config": {
    type: "string",
    default: "./bus-config/bus.conf",
    meaning: "Server config file loaded when embedded; same as `--bus-config`.",
  },
  "overlay.ca_collection_name": { type: "string", default: "overlay_ca", meaning: "Collection name of overlay CAs." },
  "overlay.network_collection_name": { type: "string", default: "overlay_networks", meaning: "Collection name of overlay networks." },
  "overlay.host_collection_name": { type: "string", default: "overlay_hosts", meaning: "Collection name of overlay hosts." },
  "overlay.log_to_console": { type: "bool", default: false, meaning: "Verbose overlay logging: a line per committed write of a CA, network or host." },
  "overlay.default_ca_validity_years": { type: "int", default: 10, meaning: "Validity of a new overlay CA in years (1 to 100)." },
  "overlay.encryption_key": {
    type: "string",
    default: "",
    meaning: "Exactly 32 ASCII characters; encrypts CA and host private keys. Empty: plaintext.",
    secret: true,
  },
  "audit.collection_name": { type: "string", default: "audit_logs", meaning: "Collection name of audit events." },
  "audit.log_to_console": { type: "bool", default: false, meaning: "Mirror audit events to stdout." },
  "audit.retention.max_age": { type: "string", default: "", meaning: "Duration (e.g. 720h) after which audit events are pruned; empty: no age pruning." },
  "audit.retention.max_records": { type: "int", default: 0, meaning: "Audit events kept at most; 0: no count pruning." },
  "audit.retention.interval": { type: "string", default: "0 2 * * *", meaning: "Cron schedule of the retention sweep." },
  "readiness.interval": { type: "string", default: "15s", meaning: "Duration between readiness probes." },
  "readiness.timeout": { type: "string", default: "5s", meaning: "Duration bounding a whole readiness probe." },
  "metrics.enabled": { type: "bool", default: true, meaning: "Registers GET /metrics." },
  "metrics.token": { type: "string", default: "", meaning: "Token /metrics requires (Bearer or Basic, spec 4.3); empty: open.", secret: true },
  "branding.dir": {
    type: "string",
    default: "",
    meaning: "Directory of overrides for branding.json, logo.svg, theme.css; empty: embedded defaults.",
  },
  "replication.enabled": {
    type: "bool",
    default: false,
    meaning: "Under serve, stream the record store (data.db) continuously to its replica with Litestream (docs/operations.md \"Disaster recovery\").",
  },
  "replication.url": {
    type: "string",
    default: "",
    meaning: "Where the replica lives: a Litestream replica URL (file:///path, s3://bucket/path, ...); empty: the bus's own object store, bucket replication.bucket.",
  },
  "replication.bucket": { type: "string", default: "platform-records", meaning: "The object store bucket of the replica on the bus (letters, digits, - and _)." },
  "replication.sync_interval": { type: "string", default: "1s", meaning: "Duration between uploads of the database's new pages to the replica." },
  "replication.metrics_addr": {
    type: "string",
    default: "127.0.0.1:9091",
    meaning: "Loopback host:port where Litestream serves its metrics, which the platform reads for its replication series.",
  },
};

/** The control plane's table: PLATFORM_* variables. */
export const PLATFORM_KEYS = keyTable<PlatformConfig>("PLATFORM", KEYS);

export const CONFIG_KEYS: ConfigKey[] = [...PLATFORM_KEYS.keys];

export function keyInfo(key: ConfigKey): KeyInfo {
  return PLATFORM_KEYS.info(key);
}

export function isConfigKey(name: string): name is ConfigKey {
  return PLATFORM_KEYS.has(name);
}

/** `bus.server_url` → `PLATFORM_BUS_SERVER_URL`. */
export function envName(key: ConfigKey): string {
  return PLATFORM_KEYS.envName(key);
}
