/// <reference path="../../../build/types/types.d.ts" />
// What main.pb.js binds for GET /metrics (platform.metrics.*): thin glue over collectors.ts (the scrape),
// counters.ts (the request counters), auth.ts and http.ts (the rules).
import { currentConfig } from "../../config/runtime";
import { CHALLENGE, scrapeAllowed, UNAUTHORIZED_BODY, UNAUTHORIZED_STATUS } from "./auth";
import { scrape } from "./collectors";
import { recordRequest } from "./counters";
import { CONTENT_TYPE, renderExposition } from "./exposition";
import { countsRequest, methodLabel, routeLabel, statusClass, statusOfThrown } from "./http";

/** Whether GET /metrics is registered (metrics.enabled; spec 8.3). */
export function enabled(): boolean {
  return currentConfig().metrics.enabled;
}

/**
 * Global middleware: counts the request by route pattern, method and status class, and times it. An
 * error from the chain is counted with the status PocketBase will answer and rethrown unchanged.
 */
export function instrument(e: core.RequestEvent): void {
  const pattern = e.request?.pattern ?? "";
  if (!countsRequest(pattern)) {
    e.next();
    return;
  }
  // Go's clock through DateTime: Date.now() in goja has millisecond resolution, too coarse for 5 ms buckets.
  const started = new DateTime().time();
  const record = (status: number) =>
    recordRequest(routeLabel(pattern), methodLabel(e.request?.method ?? ""), statusClass(status), Number(new DateTime().time().sub(started)) / 1e9);
  try {
    e.next();
  } catch (err) {
    record(statusOfThrown(err));
    throw err;
  }
  record(e.status());
}

/** GET /metrics: the scrape, behind metrics.token when one is configured. */
export function route(e: core.RequestEvent): void {
  const token = currentConfig().metrics.token;
  if (!scrapeAllowed(token, e.request?.header.get("Authorization") ?? "", (a, b) => $security.equal(a, b))) {
    e.response.header().set("WWW-Authenticate", CHALLENGE);
    e.blob(UNAUTHORIZED_STATUS, "text/plain; charset=utf-8", UNAUTHORIZED_BODY);
    return;
  }
  e.response.header().set("Cache-Control", "no-store");
  e.blob(200, CONTENT_TYPE, renderExposition(scrape(e.app)));
}
