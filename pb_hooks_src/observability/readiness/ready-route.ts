/// <reference path="../../../build/types/types.d.ts" />
// GET /api/ready (spec 4.3): the last snapshot, rendered for everyone; it never runs a check. Bundled into
// the small lib/serving.js (scripts/build-hooks.mjs) so that a hook VM created under load compiles little.
import { VERSION } from "../../version";
import { readyBodyRenderer } from "./ready-body";
import { notProbedBody, NOT_PROBED_STATUS } from "../../../common/readiness/report";
import { readSnapshotText, startedAtMs } from "./snapshot";

// One per hook VM (the module is cached per VM): each VM renders a snapshot once.
const render = readyBodyRenderer(VERSION);

/**
 * GET /api/ready: the last snapshot as is, for everyone; never runs a check. Returns the status it wrote,
 * which the request counting would otherwise ask Go for.
 */
export function readyRoute(e: core.RequestEvent): number {
  e.response.header().set("Cache-Control", "no-store");
  const text = readSnapshotText();
  const started = startedAtMs();
  const now = Date.now();
  // The body's keys in the order of spec 2.3: e.json goes through a Go map, which reorders them.
  if (!text) {
    e.blob(NOT_PROBED_STATUS, "application/json", JSON.stringify(notProbedBody(VERSION, new Date(started), new Date(now))));
    return NOT_PROBED_STATUS;
  }
  const body = render(text, started, now);
  e.blob(body.status, "application/json", body.json);
  return body.status;
}
