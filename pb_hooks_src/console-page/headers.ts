// The security headers of the console's pages (issue 13 item 6): a strict Content-Security-Policy whose
// connect-src admits this origin and the bus addresses a browser dials, and two companions. Pure: goja has
// no URL class, so the addresses are read with a pattern here and unit-tested.

/**
 * The address the console dials when bus.websocket_urls is empty (console/src/bus-address.ts
 * DEFAULT_BUS_URL): the policy must admit what the console will actually dial.
 */
export const CONSOLE_DEFAULT_BUS_URL = "ws://localhost:9222";

/**
 * PocketBase's static file route (examples/base registers `GET /{path...}` over --publicDir with index
 * fallback): every console page and asset, and only those. `/_/` (the admin UI) and `/api/` have their own
 * patterns and keep PocketBase's headers.
 */
export const CONSOLE_PATTERN = "GET /{path...}";

// scheme://host[:port][/path]: no query or fragment (a CSP source has neither), and none of the characters
// that would end a source or a directive (whitespace, ';', ',') or quote one.
const WEBSOCKET_SOURCE = /^(wss?):\/\/([A-Za-z0-9.\-[\]:]+)(\/[^\s;,'"?#]*)?(?:[?#].*)?$/i;

/** A bus address as a CSP source expression, or undefined when it is not a ws:// or wss:// URL. */
export function websocketSource(url: string): string | undefined {
  const match = WEBSOCKET_SOURCE.exec(url.trim());
  if (!match) return undefined;
  const [, scheme, host, path] = match;
  return `${scheme.toLowerCase()}://${host.toLowerCase()}${path ?? ""}`;
}

/** The addresses the console dials without an override: the configured list, else its compiled-in default. */
export function busSources(websocketUrls: readonly string[]): string[] {
  const urls = websocketUrls.length > 0 ? websocketUrls : [CONSOLE_DEFAULT_BUS_URL];
  const sources = urls.map(websocketSource).filter((source): source is string => source !== undefined);
  return [...new Set(sources)];
}

export function contentSecurityPolicy(websocketUrls: readonly string[]): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    // Svelte's component styles are built into external stylesheets; nothing sets a style attribute.
    "style-src 'self'",
    // The logo is a path of this origin (console/src/branding.ts) and Vite inlines no data: URL.
    "img-src 'self'",
    `connect-src ${["'self'", ...busSources(websocketUrls)].join(" ")}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Header name → value for every response of the console's route. */
export function consoleHeaders(websocketUrls: readonly string[]): Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicy(websocketUrls),
    "X-Content-Type-Options": "nosniff",
    // Invitation links carry their token in the query string: no page of the console passes its URL on.
    "Referrer-Policy": "no-referrer",
  };
}
