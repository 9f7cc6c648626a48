// Continuous replication of the record store under serve (issue 35): `litestream replicate` as a
// supervised child, stopped by onTerminate (main.pb.ts) with its last upload. To a replica URL it starts at
// serve's onBootstrap (loader.ts#startServing); into the bus's object store once the sidecar answers
// (platform.ts#startedRoute), since its identity's claim must be pushed and its bucket made first. What it streams: data.db only; why not
// auxiliary.db and storage/: docs/operations.md "Disaster recovery".
import { currentConfig } from "../config/runtime";
import { invokedCommand } from "../lib/flags";
import { isSupervised, startSupervised, stopSupervised } from "../lib/supervised-child";
import { withoutCredentials } from "../../common/url-text";
import { supervisorEnv } from "../bus/supervisor";
import { renderLitestreamConfig, type ReplicaTarget } from "../../common/replication/litestream-config";
import { replicationSupervisorArgs } from "./supervisor";
import { ensureRecordsIdentity, leaseBucketOf } from "./identity";
import { requireLease } from "./lease";
import { objectStoreStreamConfig } from "./replica-permissions";
import { serverUrls } from "../bus/server-port";
import { sidecarCall } from "../lib/sidecar";
import { reasonOf } from "../lib/sidecar-messages";

// PocketBase's goja exposes process.env; the generated declarations omit it.
declare const process: { env: Record<string, string | undefined> };
/** The machine's name, as the kernel has it ($os binds no os.Hostname); "" when it cannot be read. */
function hostname(): string {
  try {
    return toString($os.readFile("/proc/sys/kernel/hostname")).trim();
  } catch {
    return "";
  }
}


const STORE_KEY = "platform.replication";
const STARTING_KEY = "platform.replication.starting";
const TOKEN_KEY = "platform.replication.holder-token";
const WANTED_KEY = "platform.replication.wanted";
const fileMode = (bits: number) => bits as unknown as os.FileMode;
/** The config may name a creds file; only serve's user reads the folder. */
const PRIVATE_DIR = fileMode(0o700);
const PRIVATE_FILE = fileMode(0o600);
const BUCKET_TIMEOUT_MS = 5_000;
/** The write lease lapses this long after its holder's last renewal (renewed every third of it). */
export const LEASE_TTL_MS = 10_000;

/** The folder of what serve writes for Litestream (its config), inside the data directory. */
export function replicationDir(app: CoreApp): string {
  return $filepath.join(app.dataDir(), ".replication");
}

/** The database Litestream streams: PocketBase's main one. */
export function recordStorePath(app: CoreApp): string {
  return $filepath.join(app.dataDir(), "data.db");
}

/** From the loader VM: whether this process is `serve` with replication.enabled, for main.pb.ts and startServing. */
export function recordReplication(): void {
  if (currentConfig().replication.enabled && invokedCommand() === "serve") $app.store().set(WANTED_KEY, true);
}

export function replicationWanted(app: CoreApp = $app): boolean {
  return app.store().get(WANTED_KEY) === true;
}

/**
 * For serve's onBootstrap: replication to a replica URL starts here, returning at once. Into the bus, it
 * starts once the sidecar answers, and until this control plane holds the write lease no write is taken.
 */
export function startReplicationIfWanted(app: CoreApp): void {
  if (!replicationWanted(app)) return;
  const { url } = currentConfig().replication;
  if (url !== "") startReplication(app, { kind: "url", url });
  else requireLease(app);
}

/** Whether this process replicates into the bus, and so needs the write lease. */
export function busReplicationWanted(app: CoreApp): boolean {
  return replicationWanted(app) && currentConfig().replication.url === "";
}

/**
 * For serve's start work once the sidecar answers, and the minute's reconcile: the records identity's
 * claim pushed, and the sidecar asked to hold the write lease (it keeps a holder asked again with the same
 * settings). Litestream starts only once the lease is held (startBusLitestream), so a control plane that
 * does not hold it never writes into the replica. A failure is logged; the next minute tries again.
 */
export function holdLeaseIfWanted(app: CoreApp): void {
  if (!busReplicationWanted(app)) return;
  const config = currentConfig();
  try {
    const identity = ensureRecordsIdentity(app, config.replication.bucket);
    const servers = serverUrls(config.bus.server_url);
    sidecarCall("/v1/lease/hold", {
      servers,
      creds: identity.leaseCreds,
      bucket: leaseBucketOf(config.replication.bucket),
      ttlMs: LEASE_TTL_MS,
      holder: holderName(app),
      replicas: replicasFor(servers),
    });
  } catch (err) {
    console.error(`replication: the write lease cannot be taken yet: ${reasonOf(err)}`);
  }
}

/** Once the lease is held: the replica's bucket (made if missing) and Litestream streaming into it. */
export function startBusLitestream(app: CoreApp): void {
  const config = currentConfig();
  // One start, whichever VM gets here first (setFunc holds the store's lock).
  let first = false;
  app.store().setFunc(STARTING_KEY, (old) => {
    first = old !== true;
    return true;
  });
  if (!first) return;
  if (isSupervised(app, STORE_KEY)) {
    app.store().remove(STARTING_KEY);
    return;
  }
  try {
    const { bucket } = config.replication;
    const identity = ensureRecordsIdentity(app, bucket);
    const servers = serverUrls(config.bus.server_url);
    ensureBucket(servers, identity.userCreds, bucket, replicasFor(servers));
    const dir = replicationDir(app);
    $os.mkdirAll(dir, PRIVATE_DIR);
    const credsPath = $filepath.join(dir, "replica.creds");
    writePrivate(credsPath, identity.userCreds);
    startReplication(app, { kind: "bus", servers, bucket, credsPath, tls: servers.some((url) => url.startsWith("tls://")) });
  } catch (err) {
    console.error(`replication: not started: ${reasonOf(err)}`);
  } finally {
    app.store().remove(STARTING_KEY);
  }
}

/** Serve's stop, after Litestream's last upload: the lease let go at once, so that a standby need not wait. */
export function releaseLease(app: CoreApp): void {
  if (!busReplicationWanted(app)) return;
  try {
    sidecarCall("/v1/lease/release", {});
  } catch {
    // The sidecar is gone already: the lease lapses by itself.
  }
}

const replicasFor = (servers: string[]): number => (servers.length >= 3 ? 3 : 1);

/**
 * This control plane's name in the lease: the machine, the data directory's instance id (kept beside it,
 * never replicated) and a token drawn once per serve, so that a copy of the directory (a backup, a VM
 * snapshot) is never taken for the holder, while this serve's restarted sidecar still is.
 */
function holderName(app: CoreApp): string {
  const token = app.store().getOrSet(TOKEN_KEY, () => $security.randomStringWithAlphabet(8, "abcdefghijklmnopqrstuvwxyz0123456789")) as string;
  return `${hostname()}/${instanceId(app)}#${token}`;
}

/** The data directory's instance id (made on first use). */
export function instanceId(app: CoreApp): string {
  const dir = replicationDir(app);
  $os.mkdirAll(dir, PRIVATE_DIR);
  const path = $filepath.join(dir, "instance-id");
  try {
    return toString($os.readFile(path)).trim();
  } catch {
    const id = $security.randomStringWithAlphabet(12, "abcdefghijklmnopqrstuvwxyz0123456789");
    writePrivate(path, `${id}\n`);
    return id;
  }
}


/** Writes Litestream's config and starts its supervisor; returns at once. */
function startReplication(app: CoreApp, replica: ReplicaTarget): void {
  const config = currentConfig();
  const litestream = process.env.LITESTREAM_BIN || $filepath.join(__hooks, "..", "bin", "litestream");
  try {
    $os.stat(litestream);
  } catch {
    fail(`no litestream at ${litestream}; set LITESTREAM_BIN to its path, or replication.enabled to false`);
  }
  const dir = replicationDir(app);
  $os.mkdirAll(dir, PRIVATE_DIR);
  const configPath = $filepath.join(dir, "litestream.yml");
  writePrivate(configPath, renderLitestreamConfig({ dbPath: recordStorePath(app), replica, syncInterval: config.replication.sync_interval, metricsAddr: config.replication.metrics_addr }));

  const cmd = $os.cmd("bash", ...replicationSupervisorArgs(litestream, configPath));
  cmd.dir = dir;
  cmd.env = supervisorEnv(process.env);
  startSupervised(app, STORE_KEY, cmd);
  console.log(`replication: litestream streams ${recordStorePath(app)} to ${describeTarget(replica)}`);
}

/** Closes the supervisor's pipe: Litestream gets SIGTERM, uploads what it has, and both exit. */
export function stopReplication(app: CoreApp): void {
  stopSupervised(app, STORE_KEY);
}

/** Written beside and renamed, readable by serve's user only. */
function writePrivate(path: string, text: string): void {
  $os.writeFile(`${path}.tmp`, text, PRIVATE_FILE);
  $os.rename(`${path}.tmp`, path);
}

/** The replica's object store bucket on the bus, made with `replicas` copies when it does not exist. */
function ensureBucket(servers: string[], creds: string, bucket: string, replicas: number): void {
  const request = (subject: string, payload: string) =>
    sidecarCall<{ reply: string }>("/v1/nats/request", { servers, creds, subject, payload, timeoutMs: BUCKET_TIMEOUT_MS }, BUCKET_TIMEOUT_MS / 1000 + 2).reply;
  const stream = `OBJ_${bucket}`;
  const info = jetstreamAnswer(request(`$JS.API.STREAM.INFO.${stream}`, ""));
  if (!info.error) return;
  if (info.error.code !== 404) throw new Error(`the bus did not describe bucket ${bucket}: ${info.error.description}`);
  const created = jetstreamAnswer(request(`$JS.API.STREAM.CREATE.${stream}`, JSON.stringify(objectStoreStreamConfig(bucket, replicas))));
  if (created.error) throw new Error(`the bus did not make bucket ${bucket} (${replicas} replicas): ${created.error.description}`);
  console.log(`replication: made bucket ${bucket} on the bus with ${replicas} replica${replicas === 1 ? "" : "s"}`);
}

function jetstreamAnswer(text: string): { error?: { code: number; description: string } } {
  try {
    return JSON.parse(text) as { error?: { code: number; description: string } };
  } catch {
    return { error: { code: 0, description: "an unreadable answer" } };
  }
}

function describeTarget(replica: ReplicaTarget): string {
  return replica.kind === "url" ? withoutCredentials(replica.url) : `the bus's object store, bucket ${replica.bucket}`;
}

function fail(message: string): never {
  console.error(`serve: replication: ${message}`);
  return $os.exit(1) as never;
}
