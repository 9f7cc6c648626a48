/// <reference path="../../../../build/types/types.d.ts" />
// The bus checks (spec 4.3): bus_operator (the operator exists and is signed), bus_reachable (something
// answers as a bus server at bus.server_url; for a cluster, every node or a majority: bus-nodes.ts) and
// bus_trust (a server there accepts the $SYS credential).
// Reachability and trust stay apart: "nothing listens" and "it refuses us" have different fixes.
import type { BusInfoResponse, BusNodesResponse, NatsPingResponse } from "../../../../common/sidecar/protocol";
import { SYSTEM_OPERATOR, findOperator, unsealSystemCreds } from "../../../bus/operator";
import { serverUrls } from "../../../bus/server-port";
import { SidecarError, sidecarCall } from "../../../lib/sidecar";
import { withoutCredentials } from "../../../../common/url-text";
import { BOOTSTRAP_FIX } from "./bootstrap";
import { clusterReachability } from "./bus-nodes";
import { LAUNCHER, MIGRATE_FIX, schemaGap, type Check, type CheckContext } from "./check";

/** The operator row's columns the bus checks read. */
const OPERATOR_FIELDS = { [SYSTEM_OPERATOR]: ["operator_jwt", "sys_user_creds"] };

export const busOperator: Check = ({ app }) => {
  const gap = schemaGap(app, OPERATOR_FIELDS);
  if (gap) return { state: "fail", detail: `no bus operator record: ${gap}`, fix: BOOTSTRAP_FIX };
  const operator = findOperator(app);
  if (!operator) {
    return { state: "fail", detail: "no bus operator record: it is created with the first organization", fix: BOOTSTRAP_FIX };
  }
  if (operator.getString("operator_jwt") === "") {
    return { state: "fail", detail: "the bus operator record has no JWT", fix: "Restore bus_system_operator from a backup; a new operator means re-exporting the bus server config." };
  }
  return { state: "ok" };
};

/** The sidecar's own bound is the probe's deadline plus a second, so the prober's deadline speaks first. */
const busTimeoutMs = (ctx: CheckContext) => ctx.timeoutMs + 1_000;
const callSeconds = (ctx: CheckContext) => Math.ceil(busTimeoutMs(ctx) / 1000) + 1;

export const busReachable: Check = (ctx) => {
  const urls = serverUrls(ctx.config.bus.server_url);
  if (urls.length > 1) {
    try {
      return clusterReachability(sidecarCall<BusNodesResponse>("/v1/bus/nodes", { servers: urls, timeoutMs: busTimeoutMs(ctx) }, callSeconds(ctx)), startBusFix(ctx));
    } catch (err) {
      if (!(err instanceof SidecarError)) throw err;
      return { state: "fail", detail: `bus.server_url ${withoutCredentials(ctx.config.bus.server_url)}: ${err.reason}`, fix: startBusFix(ctx) };
    }
  }
  const url = withoutCredentials(ctx.config.bus.server_url);
  let info: BusInfoResponse;
  try {
    info = sidecarCall<BusInfoResponse>("/v1/bus/info", { server: ctx.config.bus.server_url, timeoutMs: busTimeoutMs(ctx) }, callSeconds(ctx));
  } catch (err) {
    if (!(err instanceof SidecarError)) throw err;
    return { state: "fail", detail: `bus.server_url ${url}: ${err.reason}`, fix: startBusFix(ctx) };
  }
  if (!info.jetstream) {
    return {
      state: "warn",
      detail: `the bus at ${url} (nats-server ${info.version}) answers, but its persistence (JetStream) is disabled`,
      fix: `Enable jetstream in the bus server config (${LAUNCHER} bus export --out DIR writes a config with it) and restart the bus server.`,
    };
  }
  return { state: "ok", detail: `nats-server ${info.version}` };
};

function startBusFix({ config }: CheckContext): string {
  return config.bus.embedded
    ? `The embedded bus is not running: check ${config.bus.embedded_config} and the serve log, then restart serve.`
    : `Start the bus server (${LAUNCHER} bus export --out DIR, then nats-server -c DIR/bus.conf) or correct bus.server_url.`;
}

export const busTrust: Check = (ctx) => {
  const url = withoutCredentials(ctx.config.bus.server_url);
  const gap = schemaGap(ctx.app, OPERATOR_FIELDS);
  if (gap) return { state: "skipped", detail: `could not look: ${gap}`, fix: MIGRATE_FIX };
  const operator = findOperator(ctx.app);
  if (!operator) return { state: "skipped", detail: "no bus operator yet, so no $SYS credential to present", fix: BOOTSTRAP_FIX };
  let creds: string;
  try {
    creds = unsealSystemCreds(operator);
  } catch (err) {
    return { state: "fail", detail: err instanceof Error ? err.message : String(err), fix: "Set bus.encryption_key to the key these rows were written with." };
  }
  try {
    sidecarCall<NatsPingResponse>("/v1/nats/ping", { servers: serverUrls(ctx.config.bus.server_url), creds, timeoutMs: busTimeoutMs(ctx) }, callSeconds(ctx));
  } catch (err) {
    if (!(err instanceof SidecarError)) throw err;
    if (err.status !== 403) return { state: "skipped", detail: `could not look: ${err.reason}`, fix: "See bus_reachable: trust is checked once the bus answers." };
    return {
      state: "fail",
      detail: `the bus at ${url} rejects the $SYS credential stored in the database (it trusts another operator, or a stale one)`,
      fix: `Re-export the server config from this database (${LAUNCHER} bus export --out DIR) and restart the bus server with it.`,
    };
  }
  return { state: "ok" };
};
