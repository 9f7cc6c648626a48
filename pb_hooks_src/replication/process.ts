// Continuous replication of the record store under serve (issue 35): `litestream replicate` as a
// supervised child, started from serve's onBootstrap after the embedded bus (loader.ts#startServing) and
// stopped by onTerminate (main.pb.ts), with its last upload. What it streams: data.db only; why not
// auxiliary.db and storage/: docs/operations.md "Disaster recovery".
import { currentConfig } from "../config/runtime";
import { invokedCommand } from "../lib/flags";
import { stderr } from "../lib/std-streams";
import { withoutCredentials } from "../../common/url-text";
import { supervisorEnv } from "../bus/supervisor";
import { renderLitestreamConfig, type ReplicaTarget } from "./litestream-config";
import { replicationSupervisorArgs } from "./supervisor";

// PocketBase's goja exposes process.env; the generated declarations omit it.
declare const process: { env: Record<string, string | undefined> };

interface Supervised {
  cmd: exec.Cmd;
  lifeline: io.WriteCloser;
}

const STORE_KEY = "platform.replication";
const WANTED_KEY = "platform.replication.wanted";
const fileMode = (bits: number) => bits as unknown as os.FileMode;
/** The config may name a creds file; only serve's user reads the folder. */
const PRIVATE_DIR = fileMode(0o700);
const PRIVATE_FILE = fileMode(0o600);

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

/** For serve's onBootstrap: writes Litestream's config and starts its supervisor; returns at once. */
export function startReplicationIfWanted(app: CoreApp): void {
  if (!replicationWanted(app)) return;
  const config = currentConfig();
  const litestream = process.env.LITESTREAM_BIN || $filepath.join(__hooks, "..", "bin", "litestream");
  try {
    $os.stat(litestream);
  } catch {
    fail(`no litestream at ${litestream}; set LITESTREAM_BIN to its path, or replication.enabled to false`);
  }
  const dir = replicationDir(app);
  $os.mkdirAll(dir, PRIVATE_DIR);
  const replica = replicaTarget(config.replication.url);
  const configPath = $filepath.join(dir, "litestream.yml");
  $os.writeFile(`${configPath}.tmp`, renderLitestreamConfig({ dbPath: recordStorePath(app), replica, syncInterval: config.replication.sync_interval, metricsAddr: "" }), PRIVATE_FILE);
  $os.rename(`${configPath}.tmp`, configPath);

  const cmd = $os.cmd("bash", ...replicationSupervisorArgs(litestream, configPath));
  cmd.dir = dir;
  cmd.env = supervisorEnv(process.env);
  cmd.stdout = stderr();
  cmd.stderr = stderr();
  const lifeline = cmd.stdinPipe();
  cmd.start();
  // The store keeps the pipe's write end referenced: were it collected, its finalizer would close it.
  app.store().set(STORE_KEY, { cmd, lifeline } satisfies Supervised);
  console.log(`replication: litestream streams ${recordStorePath(app)} to ${describeTarget(replica)}`);
}

/** Closes the supervisor's pipe: Litestream gets SIGTERM, uploads what it has, and both exit. */
export function stopReplication(app: CoreApp): void {
  const supervised = app.store().get(STORE_KEY) as Supervised | undefined;
  if (!supervised) return;
  app.store().remove(STORE_KEY);
  supervised.lifeline.close();
  try {
    supervised.cmd.wait();
  } catch {
    // Stopped by a signal: the supervisor's own exit status carries nothing more.
  }
}

function replicaTarget(url: string): ReplicaTarget {
  if (url !== "") return { kind: "url", url };
  return fail("replication into the bus's object store is not available yet: set replication.url (file:///path, s3://bucket/path)");
}

function describeTarget(replica: ReplicaTarget): string {
  return replica.kind === "url" ? withoutCredentials(replica.url) : `the bus's object store, bucket ${replica.bucket}`;
}

function fail(message: string): never {
  console.error(`serve: replication: ${message}`);
  return $os.exit(1) as never;
}
