// Refuses configurations the control plane must not start with, and normalizes the spec's scheme
// aliases (bus://, bus-leaf://) to the bus server's own schemes before anything uses them.
import { cronProblem } from "./cron";
import { parseDuration, positiveDurationProblem } from "../../common/config/duration";
import { ConfigError, shown } from "../../common/config/errors";
import { CONFIG_KEYS, keyInfo, type ConfigKey } from "./keys";
import { withoutCredentials } from "../../common/url-text";
import type { PlatformConfig } from "./types";

export { parseDuration } from "../../common/config/duration";

/** Names a key in messages, e.g. `bus.leaf_url (from env PLATFORM_BUS_LEAF_URL)`. */
export type Describe = (key: ConfigKey) => string;

const COLLECTION_NAME = /^[a-z_][a-z0-9_]*$/;
const MIN_LIFETIME_SECONDS = 2;
const MAX_LIFETIME_SECONDS = 87_600 * 3600;
const COLLECTION_KEYS = CONFIG_KEYS.filter((key) => /collection(_name)?$/.test(key));

/** The config with aliases normalized; throws ConfigError on the first refused value. */
export function validateConfig(config: PlatformConfig, describe: Describe = (key) => key): PlatformConfig {
  const fail: Fail = (key, problem) => {
    throw new ConfigError(`${describe(key)} ${problem}`);
  };
  const { bus, overlay, audit, readiness, tenancy } = config;

  // Several URLs are the nodes of one cluster, separated by spaces as every multi-URL value (spec 8.3).
  const serverUrls = bus.server_url.trim().split(/\s+/).map((url) => normalizeScheme(url, ["nats://", "tls://"], { "bus://": "nats://" }));
  if (serverUrls.some((url) => url === undefined)) {
    fail("bus.server_url", `must be one URL, or several separated by spaces (nodes of one cluster), each starting with nats://, tls:// or bus://, got ${shown(keyInfo("bus.server_url"), bus.server_url)}`);
  }
  const serverUrl = serverUrls.join(" ");
  const leafUrl = bus.leaf_url === "" ? "" : normalizeScheme(bus.leaf_url, ["nats-leaf://", "tls://"], { "bus-leaf://": "nats-leaf://" });
  if (leafUrl === undefined) {
    fail("bus.leaf_url", `must be empty or one URL starting with nats-leaf://, tls:// or bus-leaf://, got ${shown(keyInfo("bus.leaf_url"), bus.leaf_url)}`);
  }
  for (const url of bus.websocket_urls) {
    if (url.includes(",")) fail("bus.websocket_urls", `entry ${shown(keyInfo("bus.websocket_urls"), url)} contains a comma: separate URLs with spaces`);
  }
  if (!isSubtree(bus.managed_export_subject)) {
    fail("bus.managed_export_subject", `must be a subject ending in ".>" such as "helpdesk.>", got ${JSON.stringify(bus.managed_export_subject)}`);
  }
  checkEncryptionKey("bus.encryption_key", bus.encryption_key, fail);
  checkEncryptionKey("overlay.encryption_key", overlay.encryption_key, fail);

  checkDuration("readiness.interval", readiness.interval, fail);
  checkLifetime(bus.user_credential_lifetime, fail);
  checkDuration("readiness.timeout", readiness.timeout, fail);
  if (audit.retention.max_age !== "") checkDuration("audit.retention.max_age", audit.retention.max_age, fail);
  const cron = cronProblem(audit.retention.interval);
  if (cron !== undefined) fail("audit.retention.interval", `is not a cron schedule: ${cron}`);

  // Upper bounds a date can carry: a billion days' expiry failed every invitation, and a CA valid for
  // 10,000 years got a blank not_after that nebula-cert cannot print.
  checkBounds("tenancy.invite_expiry_days", tenancy.invite_expiry_days, 1, fail, 3650);
  checkBounds("overlay.default_ca_validity_years", overlay.default_ca_validity_years, 1, fail, 100);
  checkBounds("audit.retention.max_records", audit.retention.max_records, 0, fail);
  const limits = bus.default_limits;
  checkBounds("bus.default_limits.max_connections", limits.max_connections, -1, fail);
  checkBounds("bus.default_limits.max_subscriptions", limits.max_subscriptions, -1, fail);
  checkBounds("bus.default_limits.max_payload", limits.max_payload, -1, fail);
  checkBounds("bus.default_limits.max_persist_disk_storage", limits.max_persist_disk_storage, -1, fail);
  checkBounds("bus.default_limits.max_persist_memory_storage", limits.max_persist_memory_storage, -1, fail);

  checkCollectionNames(config, fail);
  checkReplication(config.replication, fail);

  return { ...config, bus: { ...bus, server_url: serverUrl, leaf_url: leafUrl } };
}

type Fail = (key: ConfigKey, problem: string) => never;

/** The URL with an alias scheme replaced, or undefined when its scheme is not allowed or it is not one URL. */
function normalizeScheme(url: string, schemes: string[], aliases: Record<string, string>): string | undefined {
  // Commas and spaces would make it a list, which these keys are not.
  if (/[\s,]/.test(url)) return undefined;
  for (const scheme of schemes) {
    if (url.startsWith(scheme) && url.length > scheme.length) return url;
  }
  for (const [alias, scheme] of Object.entries(aliases)) {
    if (url.startsWith(alias) && url.length > alias.length) return scheme + url.slice(alias.length);
  }
  return undefined;
}

/** `a.b.>`: non-empty tokens, the last one `>`. */
function isSubtree(subject: string): boolean {
  const tokens = subject.split(".");
  const head = tokens.slice(0, -1);
  return (
    tokens.length >= 2 &&
    tokens[tokens.length - 1] === ">" &&
    head.every((token) => token !== "" && token !== ">" && !/\s/.test(token))
  );
}

// Keys are used as AES-256 keys in bytes: non-ASCII characters would make them longer than 32 bytes.
function checkEncryptionKey(key: ConfigKey, value: string, fail: Fail): void {
  if (value === "" || /^[\x20-\x7e]{32}$/.test(value)) return;
  const ascii = /^[\x20-\x7e]*$/.test(value);
  fail(key, `must be empty or exactly 32 ASCII characters, got ${value.length} characters${ascii ? "" : ", not all printable ASCII"}`);
}

function checkDuration(key: ConfigKey, value: string, fail: Fail): void {
  const problem = positiveDurationProblem(value);
  if (problem !== undefined) fail(key, problem);
}

/** Long enough to renew at half of it, short enough to be a date a JWT carries. */
function checkLifetime(value: string, fail: Fail): void {
  const problem = positiveDurationProblem(value);
  if (problem !== undefined) return fail("bus.user_credential_lifetime", problem);
  const seconds = parseDuration(value) / 1000;
  if (seconds < MIN_LIFETIME_SECONDS || seconds > MAX_LIFETIME_SECONDS) {
    fail("bus.user_credential_lifetime", `must be between 2s and 87600h (ten years), got ${value}`);
  }
}

function checkBounds(key: ConfigKey, value: number, min: number, fail: Fail, max = Infinity): void {
  if (value < min || value > max) fail(key, `must be at least ${min}${max === Infinity ? "" : ` and at most ${max}`}, got ${value}`);
}

function checkCollectionNames(config: PlatformConfig, fail: Fail): void {
  const seen = new Map<string, ConfigKey>();
  for (const key of COLLECTION_KEYS) {
    const name = collectionName(config, key);
    if (!COLLECTION_NAME.test(name)) {
      fail(key, `must be a collection name matching ${COLLECTION_NAME.source}, got ${JSON.stringify(name)}`);
    }
    const other = seen.get(name);
    if (other !== undefined) fail(key, `names the same collection ${JSON.stringify(name)} as ${other}`);
    seen.set(name, key);
  }
}

/** A collection name by its dotted key; every collection key holds a string. */
function collectionName(config: PlatformConfig, key: ConfigKey): string {
  let node: unknown = config;
  for (const part of key.split(".")) node = (node as Record<string, unknown>)[part];
  return String(node);
}

/** Litestream's replica schemes (v0.5); nats:// is the bus's own object store, configured by the platform. */
const REPLICA_SCHEMES = ["file", "s3", "gs", "abs", "sftp", "webdav", "webdavs", "oss"] as const;

function checkReplication(replication: PlatformConfig["replication"], fail: Fail): void {
  const { url, bucket, sync_interval: syncInterval } = replication;
  if (url !== "") {
    const scheme = /^([a-z0-9]+):\/\/\S+$/.exec(url)?.[1];
    if (!scheme || !(REPLICA_SCHEMES as readonly string[]).includes(scheme)) {
      fail("replication.url", `must be empty (the bus's object store) or one replica URL starting with ${REPLICA_SCHEMES.map((s) => `${s}://`).join(", ")}, got ${JSON.stringify(withoutCredentials(url))}`);
    }
  }
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(bucket)) fail("replication.bucket", `must be 1 to 64 letters, digits, - or _, got ${JSON.stringify(bucket)}`);
  checkDuration("replication.sync_interval", syncInterval, fail);
  // Litestream's listener also serves Go's profiler: never anywhere but loopback.
  if (!/^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\]|localhost):\d{1,5}$/.test(replication.metrics_addr)) {
    fail("replication.metrics_addr", `must be a loopback host:port such as 127.0.0.1:9091, got ${JSON.stringify(replication.metrics_addr)}`);
  }
}
