/// <reference path="../../build/types/types.d.ts" />
// The console's security headers on PocketBase's static route. The policy depends on the configuration,
// which the small serving library does not load (lib/serving-names.ts says why): the loader VM renders the
// headers once into $app.store() and the middleware, run for every request, only copies them.
import { setDelivery } from "./delivery";
import { CONSOLE_PATTERN, consoleHeaders } from "./headers";

const HEADERS_KEY = "platform.consoleHeaders";

let published: Array<[string, string]> | undefined;

/** Run once by the loader VM (startup.ts), with bus.websocket_urls. */
export function publishConsoleHeaders(websocketUrls: readonly string[]): void {
  $app.store().set(HEADERS_KEY, JSON.stringify(Object.entries(consoleHeaders(websocketUrls))));
}

/**
 * For the global middleware (pb_hooks_src/middleware.ts): the console's pages and assets get the security
 * headers, their caching and, for an asset, its encoding (delivery.ts); every other route is left as it is.
 */
export function addConsoleHeaders(e: core.RequestEvent): void {
  const request = e.request;
  if (request?.pattern !== CONSOLE_PATTERN) return;
  published ??= JSON.parse(($app.store().get(HEADERS_KEY) as string | undefined) ?? "[]") as Array<[string, string]>;
  const header = e.response.header();
  for (const [name, value] of published) header.set(name, value);
  setDelivery(e, request);
}
