// The warm standby and its promotion (issue 35 item 2), bundled to pb_hooks/sidecar/standby.cjs and run by
// `scripts/platform standby` and `scripts/platform promote` (not PocketBase commands: PocketBase would
// create data.db in the data directory before the replica could be restored into it).
//   standby: follows the replica into <data dir>/data.db with `litestream restore -f`, started again when
//            it exits, until SIGTERM or SIGINT.
//   promote: with the standby stopped, a one-shot restore of the replica's newest state into data.db (a new
//            file renamed into place: a follower stopped mid-apply can leave a torn file, docs/litestream.md),
//            after which `serve` with replication.enabled takes the write lease once the old primary's lapses.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { renderLitestreamConfig } from "../common/replication/litestream-config";

const USAGE = `usage: scripts/platform standby --creds FILE [--bus "URL ..."] [--bucket NAME]
       scripts/platform promote --creds FILE [--bus "URL ..."] [--bucket NAME] [--force]
  --creds   the replica user's creds file, copied from the primary's <data dir>/.replication/replica.creds
  --bus     the hub's client URLs, space-separated (default: PLATFORM_BUS_SERVER_URL)
  --bucket  the replica's bucket (default: PLATFORM_REPLICATION_BUCKET, else platform-records)
  --force   promote over a data.db no standby wrote (a primary's)
The data directory is PB_DATA_DIR (scripts/platform's default: pb_data beside the repository).`;
const FOLLOW_INTERVAL = "250ms";
const MAX_RESTART_DELAY_MS = 30_000;

export interface StandbyOptions {
  command: "standby" | "promote";
  creds: string;
  servers: string[];
  bucket: string;
  /** promote only: replace a database no standby wrote. */
  force: boolean;
}

export class UsageError extends Error {}

/** The command line and environment, checked; every problem in one message. */
export function parseStandbyArgs(args: readonly string[], env: Record<string, string | undefined>): StandbyOptions {
  const [command, ...rest] = args;
  if (command !== "standby" && command !== "promote") throw new UsageError(`unknown command ${JSON.stringify(command ?? "")}`);
  const flags = new Map<string, string>();
  const force = command === "promote" && rest.includes("--force");
  const valued = rest.filter((arg) => !(force && arg === "--force"));
  for (let i = 0; i < valued.length; i += 2) {
    const [name, value] = [valued[i], valued[i + 1]];
    if (!["--creds", "--bus", "--bucket"].includes(name) || value === undefined) throw new UsageError(`unexpected argument ${JSON.stringify(name)}`);
    flags.set(name, value);
  }
  const creds = flags.get("--creds") ?? "";
  const servers = (flags.get("--bus") ?? env.PLATFORM_BUS_SERVER_URL ?? "").split(/\s+/).filter((url) => url !== "");
  const bucket = flags.get("--bucket") ?? (env.PLATFORM_REPLICATION_BUCKET || "platform-records");
  const problems = [
    ...(creds === "" ? ["--creds is required"] : []),
    ...(servers.length === 0 ? ["--bus (or PLATFORM_BUS_SERVER_URL) is required"] : []),
    ...servers.filter((url) => !/^(nats|tls|bus):\/\/\S+$/.test(url)).map((url) => `--bus ${JSON.stringify(url)} is not a nats:// URL`),
    ...(/^[A-Za-z0-9_-]{1,64}$/.test(bucket) ? [] : [`--bucket ${JSON.stringify(bucket)} must be letters, digits, - or _`]),
  ];
  if (problems.length > 0) throw new UsageError(problems.join("; "));
  return { command, creds, servers, bucket, force };
}

interface Places {
  dataDir: string;
  litestream: string;
}

/** Writes the follower's Litestream config beside the database; returns its path. */
function writeConfig(options: StandbyOptions, places: Places): string {
  const dir = join(places.dataDir, ".replication");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const credsPath = join(dir, "replica.creds");
  writeFileSync(credsPath, readFileSync(options.creds, "utf8"), { mode: 0o600 });
  chmodSync(credsPath, 0o600); // an older copy keeps its mode through writeFileSync
  const path = join(dir, "standby.yml");
  const text = renderLitestreamConfig({
    dbPath: join(places.dataDir, "data.db"),
    replica: { kind: "bus", servers: options.servers, bucket: options.bucket, credsPath },
    syncInterval: "1s",
    metricsAddr: "",
  });
  writeFileSync(`${path}.tmp`, text, { mode: 0o600 });
  renameSync(`${path}.tmp`, path);
  return path;
}

const pidFile = (places: Places) => join(places.dataDir, ".replication", "standby.pid");

function standbyRunning(places: Places): number | undefined {
  try {
    const pid = Number(readFileSync(pidFile(places), "utf8").trim());
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

/** Follows the replica until SIGTERM or SIGINT; resolves with the exit status. */
async function runStandby(options: StandbyOptions, places: Places): Promise<number> {
  const db = join(places.dataDir, "data.db");
  if (existsSync(db) && !existsSync(`${db}-txid`)) {
    console.error(`standby: ${db} exists and was not written by a standby: move it away first (a primary's database is never overwritten)`);
    return 2;
  }
  const running = standbyRunning(places);
  if (running !== undefined) {
    console.error(`standby: another standby (pid ${running}) follows into ${places.dataDir} already`);
    return 2;
  }
  const config = writeConfig(options, places);
  writeFileSync(pidFile(places), `${process.pid}\n`);
  let child: ChildProcess | undefined;
  let stopping = false;
  const stop = () => {
    stopping = true;
    child?.kill("SIGTERM");
  };
  process.on("SIGTERM", stop).on("SIGINT", stop);
  let delay = 1_000;
  try {
    while (!stopping) {
      const started = Date.now();
      child = spawn(places.litestream, ["restore", "-f", "-follow-interval", FOLLOW_INTERVAL, "-config", config, db], { stdio: "inherit" });
      const status = await new Promise<number>((resolve) => {
        child?.once("exit", (code) => resolve(code ?? 1));
        child?.once("error", (err) => {
          console.error(`standby: ${places.litestream} cannot be run: ${err.message}`);
          resolve(127);
        });
      });
      if (stopping) break;
      if (Date.now() - started >= 60_000) delay = 1_000;
      console.error(`standby: litestream exited with status ${status}; following again in ${delay / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, MAX_RESTART_DELAY_MS);
    }
  } finally {
    rmSync(pidFile(places), { force: true });
  }
  console.error("standby: stopped; `scripts/platform promote` makes this machine the primary");
  return 0;
}

/** The replica's newest state into data.db, consistent, with the follower's leftovers removed. */
function promote(options: StandbyOptions, places: Places): number {
  const running = standbyRunning(places);
  if (running !== undefined) {
    console.error(`promote: the standby (pid ${running}) still follows the replica: stop it first`);
    return 2;
  }
  const db = join(places.dataDir, "data.db");
  // Only a standby's copy (or nothing) is replaced: a primary's database is never overwritten.
  if (existsSync(db) && !existsSync(`${db}-txid`) && !options.force) {
    console.error(`promote: ${db} was not written by a standby (no ${db}-txid): is this a primary's data directory? Move it away, or pass --force`);
    return 2;
  }
  const config = writeConfig(options, places);
  const restored = spawnSync(places.litestream, ["restore", "-force", "-config", config, "-o", db, db], { stdio: "inherit" });
  if (restored.status !== 0) {
    console.error(`promote: the restore failed (status ${restored.status ?? restored.signal}); data.db is as it was`);
    return 1;
  }
  // The follower's progress file and any journal of the file before the rename belong to no database now.
  for (const leftover of [`${db}-txid`, `${db}-wal`, `${db}-shm`]) rmSync(leftover, { force: true });
  console.log(
    `promote: ${db} holds the replica's newest state. Start serve with replication.enabled: it takes the write lease once the old primary's lapses (10 s) and replicates into bucket ${options.bucket} again.`,
  );
  return 0;
}

async function main(): Promise<number> {
  let options: StandbyOptions;
  try {
    options = parseStandbyArgs(process.argv.slice(2), process.env);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`${err.message}\n${USAGE}`);
    return 2;
  }
  const places: Places = { dataDir: process.env.PB_DATA_DIR ?? "pb_data", litestream: process.env.LITESTREAM_BIN ?? "litestream" };
  mkdirSync(places.dataDir, { recursive: true });
  return options.command === "standby" ? runStandby(options, places) : promote(options, places);
}

// Run as a program (the bundle), not when a test imports it.
if (typeof require !== "undefined" && require.main === module) {
  main().then(
    (status) => process.exit(status),
    (err: unknown) => {
      console.error(`${process.argv[2] ?? "standby"}: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
