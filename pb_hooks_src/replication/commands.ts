// CLI glue: `replication status`, what an operator asks first about the record store's replica: whether
// replication is on and where to, whether the serving Litestream answers and what it has uploaded, and
// who holds the write lease. Commands run in the loader VM, so closures here are safe.
import { currentConfig } from "../config/runtime";
import { commandGroup, reportingFailure } from "../lib/command-run";
import { serverUrls } from "../bus/server-port";
import { findOperator } from "../bus/operator";
import { sidecarCall } from "../lib/sidecar";
import { unsealSecret } from "../lib/secrets";
import { withoutCredentials } from "../../common/url-text";
import { leaseBucketOf } from "./identity";
import { readLitestream } from "./look";
import { replicationDir } from "./process";

export function registerReplicationCommand(root: cobra.Command): void {
  const replication = commandGroup("replication", "The record store's replica (docs/operations.md \"Disaster recovery\")");
  replication.addCommand(
    new Command({
      use: "status",
      short: "Say whether the record store replicates and where to, what the serving Litestream uploaded, and who holds the write lease",
      silenceUsage: true,
      runE: reportingFailure("replication status", () => {
        for (const line of statusLines($app)) console.log(line);
      }),
    }),
  );
  root.addCommand(replication);
}

function statusLines(app: CoreApp): string[] {
  const { replication, bus } = currentConfig();
  const servers = serverUrls(bus.server_url);
  const lines = [
    `replication: ${replication.enabled ? "on" : "off (replication.enabled)"}`,
    `target: ${replication.url ? withoutCredentials(replication.url) : `the bus's object store, bucket ${replication.bucket} (${servers.length >= 3 ? 3 : 1} replica${servers.length >= 3 ? "s" : ""}, ${withoutCredentials(bus.server_url)})`}`,
  ];
  const numbers = readLitestream(replication.metrics_addr);
  lines.push(
    numbers
      ? `litestream: answering at ${replication.metrics_addr}: ${numbers.uploads} uploads since it started; newest local transaction ${numbers.txid}`
      : `litestream: not answering at ${replication.metrics_addr} (replication.metrics_addr): is serve running with replication.enabled?`,
  );
  if (!replication.url) lines.push(`write lease: ${leaseLine(app, servers, replication.bucket)}`);
  return lines;
}

function leaseLine(app: CoreApp, servers: string[], bucket: string): string {
  const sealed = findOperator(app)?.getString("records_lease_creds") ?? "";
  if (!sealed) return "none yet (serve takes it when replication into the bus first runs)";
  const lease = leaseBucketOf(bucket);
  let reply = "";
  try {
    reply = sidecarCall<{ reply: string }>("/v1/nats/request", {
      servers,
      creds: unsealSecret("bus", sealed, "the lease user's credentials"),
      subject: `$JS.API.DIRECT.GET.KV_${lease}.$KV.${lease}.primary`,
      payload: "",
      timeoutMs: 3_000,
    }, 5).reply;
  } catch (err) {
    return `unknown: the bus did not answer (${err instanceof Error ? err.message : String(err)})`;
  }
  let holder = "";
  try {
    holder = String((JSON.parse(reply) as { holder?: unknown }).holder ?? "");
  } catch {
    return "not held: no control plane accepts writes until one takes it";
  }
  const mine = readInstanceId(app);
  return `held by ${holder}${mine && holder.includes(`/${mine}#`) ? " (this data directory)" : " (another control plane)"}`;
}

function readInstanceId(app: CoreApp): string {
  try {
    return toString($os.readFile($filepath.join(replicationDir(app), "instance-id"))).trim();
  } catch {
    return "";
  }
}
