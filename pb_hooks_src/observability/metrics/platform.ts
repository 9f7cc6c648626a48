/// <reference path="../../../build/types/types.d.ts" />
// What main.pb.js binds for GET /metrics (platform.metrics.*): thin glue over collectors.ts (the scrape)
// and auth.ts. The request counting middleware is instrument.ts, in the small lib/serving.js.
import { currentConfig } from "../../config/runtime";
import { CHALLENGE, scrapeAllowed, UNAUTHORIZED_BODY, UNAUTHORIZED_STATUS } from "../../../common/metrics/scrape-auth";
import { scrape } from "./collectors";
import { CONTENT_TYPE, renderExposition } from "./exposition";

/** Whether GET /metrics is registered (metrics.enabled; spec 8.3). */
export function enabled(): boolean {
  return currentConfig().metrics.enabled;
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
