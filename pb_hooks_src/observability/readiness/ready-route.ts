/// <reference path="../../../build/types/types.d.ts" />
// GET /api/ready (spec 4.3): the last snapshot, rendered for everyone; it never runs a check. Bundled into
// the small lib/serving.js (scripts/build-hooks.mjs) so that a hook VM created under load compiles little.
import { VERSION } from "../../version";
import { notProbedBody, NOT_PROBED_STATUS, readinessBody } from "./report";
import { readSnapshot, startedAtMs } from "./snapshot";
import { httpStatus } from "./states";

/** GET /api/ready: the last snapshot as is, for everyone; never runs a check. */
export function readyRoute(e: core.RequestEvent): void {
  e.response.header().set("Cache-Control", "no-store");
  const snapshot = readSnapshot();
  const now = new Date();
  const started = new Date(startedAtMs());
  if (!snapshot) {
    sendJson(e, NOT_PROBED_STATUS, notProbedBody(VERSION, started, now));
    return;
  }
  const body = readinessBody({
    results: snapshot.results,
    version: VERSION,
    startedAt: started,
    probedAt: new Date(snapshot.probedAtMs),
    probeTookMs: snapshot.tookMs,
    now,
  });
  sendJson(e, httpStatus(body.state), body);
}

/** JSON with the keys in the order of spec 2.3 (e.json goes through a Go map, which reorders them). */
function sendJson(e: core.RequestEvent, status: number, body: unknown): void {
  e.blob(status, "application/json", JSON.stringify(body));
}

