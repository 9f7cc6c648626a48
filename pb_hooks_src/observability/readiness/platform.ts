/// <reference path="../../../build/types/types.d.ts" />
// What main.pb.js binds for readiness (platform.readiness.*): GET /api/ready and the routes of the
// sidecar's prober (docs/operations.md "How the prober runs").
import type { ProbeSettings } from "../../../common/sidecar/protocol";
import { parseDuration } from "../../../common/config/duration";
import { currentConfig } from "../../config/runtime";
import { serverUrls } from "../../bus/server-port";
import { upkeepIntervalMs } from "../../bus/lifetime";
import { withoutCredentials } from "../../../common/url-text";
import { requestOf } from "../../lib/events";
import { readJsonObject, respond } from "../../lib/request";
import { sidecarCall } from "../../lib/sidecar";
import { requireSidecarCaller } from "../../lib/sidecar-caller";
import { notFound } from "../../lib/errors";
import { CHECKS, CHECK_NAMES } from "./checks";
import { panicked, type CheckResult } from "../../../common/readiness/report";
import { selfUrl } from "./self-url";
import { lookAtReplication } from "../../replication/look";
import { parseSnapshotPost } from "./snapshot-post";
import { readSnapshot, startedAtMs, writeSnapshot } from "./snapshot";

export { markStarted } from "./snapshot";

/**
 * The prober's settings, handed to the sidecar when it starts under `serve`, with a hub's nodes to watch
 * and the credential upkeep's period.
 */
export function proberSettings(): ProbeSettings {
  const { readiness, bus } = currentConfig();
  const nodes = serverUrls(bus.server_url).map(withoutCredentials);
  return {
    ...selfUrl($os.args),
    checks: [...CHECK_NAMES],
    intervalMs: Math.max(1, Math.round(parseDuration(readiness.interval))),
    timeoutMs: Math.max(1, Math.round(parseDuration(readiness.timeout))),
    ...(nodes.length > 1 ? { busNodes: nodes } : {}),
    upkeepIntervalMs: upkeepIntervalMs(),
  };
}

/** POST /api/platform/readiness/checks/{name} (the prober only): runs one check here, first-hand. */
export function checkRoute(e: core.RequestEvent): void {
  respond(e, () => {
    requireSidecarCaller(e);
    const name = requestOf(e).pathValue("name");
    const check = CHECKS[name];
    if (!Object.prototype.hasOwnProperty.call(CHECKS, name) || !check) throw notFound("no such check");
    const config = currentConfig();
    const started = Date.now();
    let result: CheckResult;
    try {
      const outcome = check({ app: $app, config, nowMs: started, timeoutMs: parseDuration(config.readiness.timeout) });
      result = { name, ...outcome, tookMs: Date.now() - started };
    } catch (err) {
      // A panic inside a check is reported as fail; the stack stays out of the public report and goes to
      // the log, where the report's fix sends the reader.
      console.error(`readiness: the ${name} check crashed: ${err instanceof Error && err.stack ? err.stack : String(err)}`);
      result = panicked(name, err, Date.now() - started);
    }
    return { status: 200, body: result };
  });
}

/** POST /api/platform/readiness/snapshot (the prober only): the probe's results become the served snapshot. */
export function snapshotRoute(e: core.RequestEvent): void {
  respond(e, () => {
    requireSidecarCaller(e);
    const { results, tookMs } = parseSnapshotPost(readJsonObject(e), CHECK_NAMES);
    writeSnapshot({ results, tookMs, probedAtMs: Date.now() });
    // Not a check (the report keeps its ten): the replication series see uploads at the probe's pace too.
    lookAtReplication(e.app);
    return { status: 200, body: { ok: true } };
  });
}

/**
 * POST /api/platform/started (the sidecar only, once, before its first probe): PocketBase listens and the
 * sidecar answers, so `work` (serve's start work that needs both) runs now; the probe follows its answer.
 */
export function answerStarted(e: core.RequestEvent, work: (app: CoreApp) => void): void {
  respond(e, () => {
    requireSidecarCaller(e);
    work($app);
    return { status: 200, body: { ok: true } };
  });
}

export const WATCHDOG_JOB = "platform_readiness_watchdog";
export const WATCHDOG_SCHEDULE = "* * * * *";

/**
 * Cron, every minute under serve: when no snapshot has landed for three intervals plus the timeout, the
 * prober has stopped (its sidecar died, say). Asking the sidecar for its health restarts a sidecar that is
 * gone (lib/sidecar.ts), and with it the prober; the log says so either way.
 */
export function watchProber(): void {
  const { readiness } = currentConfig();
  const limitMs = 3 * (parseDuration(readiness.interval) + parseDuration(readiness.timeout));
  const ageMs = Date.now() - (readSnapshot()?.probedAtMs ?? startedAtMs());
  if (ageMs <= limitMs) return;
  console.error(`readiness: no probe has completed for ${Math.round(ageMs / 1000)} s; checking the sidecar that runs the prober`);
  try {
    sidecarCall("/v1/health", undefined, 2);
  } catch (err) {
    console.error(`readiness: ${err instanceof Error ? err.message : String(err)}`);
  }
}
