// The record store's replication (issue 35 item 6): RPO (how old the oldest acknowledged write missing from
// a follower is) at two write rates, write latency with replication on and off in the same run, RTO (a
// primary SIGKILLed to a promoted standby answering /api/ready 200), and the full snapshot and restore of
// a 100 MB and a 1 GB database through a NATS object store. Figures are printed, never asserted.
//
// Writes are bus roles created through the records API (a row with its hooks, no signing): the cheapest
// write a tenant makes, so the rates reach what is asked of them on two cores.
import { execFile, execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "@nats-io/transport-node";
import type PocketBase from "pocketbase";
import { eventually, startPlatformWithBus, type PlatformWithBus } from "../e2e/harness/bus";
import { startNatsServer } from "../e2e/harness/nats";
import { LAUNCHER, launch, replicationEnv, startPlatform } from "../e2e/harness/platform";
import { freePort } from "../e2e/harness/ports";
import { REPO_ROOT } from "../e2e/harness/process";
import { getReady } from "../e2e/harness/readiness";
import { unique } from "../e2e/harness/world";
import { objectStoreStreamConfig } from "../pb_hooks_src/replication/replica-permissions";
import { renderLitestreamConfig } from "../common/replication/litestream-config";
import { report } from "./stats";

const LITESTREAM = join(REPO_ROOT, "bin/litestream");
const RATES = (process.env.BENCH_RPO_RATES ?? "20,200").split(",").filter(Boolean).map(Number);
const RPO_SECONDS = Number(process.env.BENCH_RPO_SECONDS ?? 20);
const LATENCY_SAMPLES = Number(process.env.BENCH_REPLICATION_WRITES ?? 200);
const RTO_TRIALS = Number(process.env.BENCH_RTO_TRIALS ?? 2);
const RESTORE_MB = (process.env.BENCH_RESTORE_MB ?? "100,1000").split(",").filter(Boolean).map(Number);
const scratch = mkdtempSync(join(tmpdir(), "bench-replication-"));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** SIGKILLs serve and every process it started: those naming its data directory, and their children. */
function killTree(platform: { dataDir: string }): void {
  const pids = (args: string[]) => spawnSync("pgrep", args, { encoding: "utf8" }).stdout.split("\n").filter((p) => p !== "");
  const named = pids(["-f", platform.dataDir]);
  const all = new Set([...named, ...named.flatMap((pid) => pids(["-P", pid]))]);
  for (const pid of all) spawnSync("kill", ["-KILL", pid]);
}

async function bootstrapped(hub: PlatformWithBus): Promise<PlatformWithBus> {
  const done = await hub.platform.command(["bootstrap", "--email", "operator@example.com", "--org", "System", "--operator-org", "Operators"]);
  if (done.code !== 0) throw new Error(`bootstrap failed: ${done.stderr}`);
  await hub.platform.restart(); // serve's start with the bus up
  return hub;
}

/** An organization to write roles into, once the control plane takes writes (its lease, with replication). */
async function organizationOf(su: PocketBase): Promise<string> {
  let id = "";
  const created = await eventually(async () => {
    id = await su.collection("organizations").create({ name: "Bench", code: unique("bench"), active: true }).then((o) => o.id, () => "");
    return id !== "";
  }, 30_000);
  if (!created) throw new Error("the control plane took no write");
  return id;
}

// 1. RPO and write latency: one control plane replicating into its bus, one not, side by side.
const on = await bootstrapped(await startPlatformWithBus({ env: await replicationEnv() }));
const off = await bootstrapped(await startPlatformWithBus());
try {
  const suOn = await on.platform.superuser();
  const suOff = await off.platform.superuser();
  const [orgOn, orgOff] = [await organizationOf(suOn), await organizationOf(suOff)];
  const role = (su: PocketBase, organization: string, name: string) => su.collection("bus_roles").create({ organization, name });

  const latency = { on: [] as number[], off: [] as number[] };
  const failed = { on: [] as string[], off: [] as string[] };
  for (let i = 0; i < LATENCY_SAMPLES; i++) {
    for (const [side, su, organization] of [["on", suOn, orgOn], ["off", suOff, orgOff]] as const) {
      const started = performance.now();
      const ok = await role(su, organization, unique(`lat-${side}`)).then(() => true, (err: unknown) => void failed[side].push(String(err)));
      if (ok) latency[side].push(performance.now() - started);
    }
  }
  for (const side of ["on", "off"] as const) if (failed[side].length > 0) console.log(`replication ${side}: ${failed[side].length} writes refused, the first: ${failed[side][0]}`);
  report(`write (bus role) with replication on, interleaved with off (${LATENCY_SAMPLES} each)`, latency.on, [50, 95, 99, 100]);
  report("write (bus role) with replication off", latency.off, [50, 95, 99, 100]);

  // A follower of the replica, as a standby runs it, read every 100 ms.
  const followed = join(scratch, "follower.db");
  const config = join(on.platform.dataDir, ".replication/litestream.yml");
  const follower = spawn(LITESTREAM, ["restore", "-f", "-follow-interval", "250ms", "-config", config, "-o", followed, join(on.platform.dataDir, "data.db")], { stdio: "ignore" });
  try {
    await eventually(async () => existsSync(`${followed}-txid`), 30_000);
    for (const rate of RATES) {
      const prefix = `rpo${rate}-${Date.now()}-`;
      const acked = new Map<number, number>();
      const refused: string[] = [];
      let sent = 0;
      let inflight = 0;
      const started = Date.now();
      const deadline = started + RPO_SECONDS * 1000;
      const samples: number[] = [];
      let unread = 0;
      let sampling = true;
      // Read without blocking the writer: the oldest acknowledged write the follower does not show yet.
      const sampler = (async () => {
        while (sampling) {
          // A read the follower's own write refused (database is locked) is no sample: it would count every write.
          const visible = await new Promise<number>((resolve) =>
            execFile("sqlite3", [followed, `SELECT coalesce(max(CAST(substr(name, ${prefix.length + 1}) AS INTEGER)), -1) FROM bus_roles WHERE name LIKE '${prefix}%';`], (err, out) =>
              resolve(err ? NaN : Number(String(out).trim())),
            ),
          );
          if (Number.isNaN(visible)) {
            unread++;
            await sleep(100);
            continue;
          }
          const now = Date.now();
          let oldest = now;
          for (const [seq, at] of acked) if (seq > visible && at < oldest) oldest = at;
          samples.push(now - oldest);
          await sleep(100);
        }
      })();
      while (Date.now() < deadline) {
        // As many writes as the rate asks by now, at most 4 in flight: more only wait on SQLite's one writer.
        while (sent < ((Date.now() - started) / 1000) * rate && inflight < 4) {
          const seq = sent++;
          inflight++;
          void role(suOn, orgOn, `${prefix}${seq}`)
            .then(() => acked.set(seq, Date.now()), (err: unknown) => void (refused.push(String(err))))
            .finally(() => inflight--);
        }
        await sleep(2);
      }
      while (inflight > 0) await sleep(20);
      await sleep(3_000);
      sampling = false;
      await sampler;
      if (refused.length > 0) console.log(`${refused.length} writes refused, the first: ${refused[0]}`);
      report(`RPO at ${rate} writes/s asked (${(acked.size / RPO_SECONDS).toFixed(0)} acknowledged/s): age of the oldest acknowledged write missing from a follower (restore -f, 250 ms), sampled every 100 ms (${unread} reads refused while the follower wrote)`, samples, [50, 95, 100]);
    }
  } finally {
    follower.kill("SIGTERM");
  }
} finally {
  await on.stop();
  await off.stop();
}

// 2. RTO: the primary SIGKILLed, its standby stopped and promoted, serve on the promoted copy ready.
const rto: number[] = [];
const rtoWritable: number[] = [];
for (let trial = 0; trial < RTO_TRIALS; trial++) {
  const primary = await bootstrapped(await startPlatformWithBus({ env: await replicationEnv() }));
  const standbyDir = join(scratch, `standby-${trial}`);
  const creds = join(scratch, `replica-${trial}.creds`);
  let standby: ChildProcess | undefined;
  let promoted: Awaited<ReturnType<typeof startPlatform>> | undefined;
  try {
    await organizationOf(await primary.platform.superuser());
    const source = join(primary.platform.dataDir, ".replication/replica.creds");
    await eventually(async () => existsSync(source), 20_000);
    writeFileSync(creds, readFileSync(source, "utf8"), { mode: 0o600 });
    standby = spawn(LAUNCHER, ["standby", "--creds", creds, "--bus", primary.busUrl], { env: { ...process.env, PB_DATA_DIR: standbyDir }, stdio: "ignore" });
    await eventually(async () => existsSync(join(standbyDir, "data.db-txid")), 30_000);
    await sleep(2_000);
    // The machine's loss: PocketBase and every process it started (the sidecar, which would otherwise let
    // go of the lease at once, and Litestream) die together; the lease then lapses by itself.
    killTree(primary.platform);
    await primary.platform.kill();
    const killed = performance.now();
    const exited = new Promise((resolve) => standby?.once("exit", resolve));
    standby.kill("SIGTERM");
    await exited;
    const promotion = await launch(["promote", "--creds", creds, "--bus", primary.busUrl], { ...process.env, PB_DATA_DIR: standbyDir }, scratch);
    if (promotion.code !== 0) throw new Error(`promote failed: ${promotion.stderr}`);
    promoted = await startPlatform({ env: await replicationEnv({ PLATFORM_BUS_SERVER_URL: primary.busUrl }), seed: (dataDir) => copyFileSync(join(standbyDir, "data.db"), join(dataDir, "data.db")) });
    const target = promoted;
    if (!(await eventually(async () => (await getReady(target.url)).status === 200, 60_000))) throw new Error("the promoted standby never answered 200");
    rto.push(performance.now() - killed);
    // Writable once the old primary's lease has lapsed (it died with its sidecar: no release).
    await organizationOf(await target.superuser());
    rtoWritable.push(performance.now() - killed);
  } finally {
    standby?.kill("SIGKILL");
    await promoted?.stop();
    await primary.stop();
  }
}
report("RTO: primary SIGKILLed → standby stopped, promoted, serve started → /api/ready 200 (steps run back to back)", rto, [50, 100]);
report("RTO to the first write the promoted standby accepts (the old primary's write lease lapses 10 s after its last renewal)", rtoWritable, [50, 100]);

// 3. Full snapshot and restore through a NATS object store (no authentication: the figures are Litestream's
// and JetStream's) and, for comparison, a file replica (a second disk's or an S3 target's way of reading).
const nats = await startNatsServer({ configText: `port: ${await freePort()}\njetstream { store_dir: "${join(scratch, "js")}" }\n` });
try {
  const url = `nats://127.0.0.1:${nats.port}`;
  const nc = await connect({ servers: url });
  for (const megabytes of RESTORE_MB) {
    const db = join(scratch, `db-${megabytes}.db`);
    execFileSync("sqlite3", [db, `PRAGMA journal_mode=WAL; CREATE TABLE t(x BLOB); WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM c WHERE i < ${megabytes * 250}) INSERT INTO t SELECT randomblob(4000) FROM c;`]);
    for (const target of ["NATS object store", "file replica"] as const) {
      const bucket = `bench${megabytes}`;
      if (target === "NATS object store") {
        const created = JSON.parse((await nc.request(`$JS.API.STREAM.CREATE.OBJ_${bucket}`, JSON.stringify(objectStoreStreamConfig(bucket, 1)))).string()) as { error?: { description: string } };
        if (created.error) throw new Error(`bucket: ${created.error.description}`);
      }
      const replicaUrl = target === "NATS object store" ? `${url}/${bucket}` : `file://${join(scratch, `replica-${megabytes}`)}`;
      const config = join(scratch, `ls-${megabytes}.yml`);
      writeFileSync(config, renderLitestreamConfig({ dbPath: db, replica: { kind: "url", url: replicaUrl }, syncInterval: "1s", metricsAddr: "" }));
      // Litestream's local state of the previous target would make it upload only what changed since.
      rmSync(join(scratch, `.db-${megabytes}.db-litestream`), { recursive: true, force: true });
      const started = performance.now();
      let log = "";
      const replicate = spawn(LITESTREAM, ["replicate", "-config", config]);
      replicate.stdout.on("data", (d: Buffer) => (log += d.toString()));
      replicate.stderr.on("data", (d: Buffer) => (log += d.toString()));
      // The whole database is on the replica once its first full file is: the L9 snapshot, or else (a large
      // one whose upload stalled) the L0 file, compacted into L1.
      const whole = /snapshot complete.* size=(\d+)|compaction complete.* level=1 txid\.min=0000000000000001 .*size=(\d+)/;
      if (!(await eventually(async () => whole.test(log), 600_000))) throw new Error(`no full copy of ${megabytes} MB on the replica: ${log}`);
      const snapshotMs = performance.now() - started;
      const match = whole.exec(log);
      const size = Number(match?.[1] ?? match?.[2] ?? NaN);
      const failures = (log.match(/level=ERROR/g) ?? []).length;
      replicate.kill("SIGTERM");
      await new Promise((resolve) => replicate.once("exit", resolve));
      const out = join(scratch, `restored-${megabytes}.db`);
      const restoreStarted = performance.now();
      const restored = spawnSync(LITESTREAM, ["restore", "-config", config, "-o", out, db], { encoding: "utf8", timeout: 600_000 });
      const restoreMs = performance.now() - restoreStarted;
      const restoreText = restored.status === 0 ? `restore ${(restoreMs / 1000).toFixed(1)} s` : `restore FAILED after ${(restoreMs / 1000).toFixed(1)} s: ${(restored.stderr || String(restored.error)).trim().split("\n").pop()}`;
      console.log(
        `${megabytes} MB database (${(statSync(db).size / 1e6).toFixed(0)} MB file), ${target}: full copy ${(size / 1e6).toFixed(1)} MB uploaded in ${(snapshotMs / 1000).toFixed(1)} s with ${failures} failed upload(s) retried (what the daily re-snapshot costs); ${restoreText}`,
      );
      rmSync(out, { force: true });
      rmSync(join(scratch, `replica-${megabytes}`), { recursive: true, force: true });
    }
    rmSync(db, { force: true });
  }
  await nc.close();
} finally {
  await nats.stop();
  rmSync(scratch, { recursive: true, force: true });
}
