// Which addresses the browser dials for the bus (spec 8.3, console side): this device's override, else the
// deployment's bus.websocket_urls from GET /api/client-config, else the compiled-in default. The override
// replaces the list (several entries are one cluster). Pure, apart from the storage the caller passes.
import type { ClientConfig } from "../../common/tenancy/client-config";

export const DEFAULT_BUS_URL = "ws://localhost:9222";
/** localStorage key of the override: a JSON array of URLs, kept on this device only. */
export const OVERRIDE_KEY = "console.busWebsocketUrls";

export type BusAddressSource = "override" | "server" | "default";

/** Each source in words, as the screens name the one in effect. */
export const SOURCE_WORDS: Readonly<Record<BusAddressSource, string>> = {
  override: "this device's override",
  server: "the server's list (bus.websocket_urls)",
  default: "the built-in default (the server lists no address)",
};

export interface BusAddresses {
  urls: string[];
  source: BusAddressSource;
  /**
   * What the page's Content-Security-Policy lets it dial: the server renders connect-src from the same
   * list (pb_hooks_src/console-page/headers.ts), else the default. An override cannot widen it.
   */
  admitted: string[];
}

/** The websocket addresses GET /api/client-config served; a malformed answer reads as none. */
export function servedBusAddresses(config: Partial<ClientConfig>): string[] {
  const urls: unknown = config.natsWebsocketUrls;
  return Array.isArray(urls) ? urls.filter((u): u is string => typeof u === "string") : [];
}

export function resolveBusAddresses(override: readonly string[], server: readonly string[]): BusAddresses {
  const admitted = server.length > 0 ? [...server] : [DEFAULT_BUS_URL];
  if (override.length > 0) return { urls: [...override], source: "override", admitted };
  if (server.length > 0) return { urls: [...server], source: "server", admitted };
  return { urls: [DEFAULT_BUS_URL], source: "default", admitted };
}

/** scheme://host:port of a URL, lower-cased: what connect-src compares for a source without a path. */
function originOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`.toLowerCase();
  } catch {
    return url;
  }
}

/** The addresses in effect that the page's policy refuses (only an override can name one). */
export function outsidePolicy(addresses: BusAddresses): string[] {
  const admitted = new Set(addresses.admitted.map(originOf));
  return addresses.urls.filter((url) => !admitted.has(originOf(url)));
}

/** Why the browser will not dial `urls` under this page's policy, and what opens them. */
export function policyRefusal(urls: readonly string[], admitted: readonly string[]): string {
  return `This page's security policy lets the browser dial only ${admitted.join(", ")}, so it refuses ${urls.join(", ")}: list the address in the server's bus.websocket_urls, or clear this device's override (Settings).`;
}

export type ParsedAddresses = { ok: true; urls: string[] } | { ok: false; error: string };

/** Override text as typed: URLs separated by commas, spaces or lines; each must be ws:// or wss:// with a host. */
export function parseBusAddresses(text: string): ParsedAddresses {
  const entries = text.split(/[\s,]+/).filter((entry) => entry !== "");
  if (entries.length === 0) return { ok: false, error: "Enter at least one address, or clear the override." };
  for (const entry of entries) {
    let url: URL;
    try {
      url = new URL(entry);
    } catch {
      return { ok: false, error: `“${entry}” is not a URL.` };
    }
    if (url.protocol !== "ws:" && url.protocol !== "wss:") return { ok: false, error: `“${entry}” must start with ws:// or wss://.` };
    if (!url.hostname) return { ok: false, error: `“${entry}” has no host.` };
  }
  return { ok: true, urls: [...new Set(entries)] };
}

/** The stored override, or none when absent or not a list of strings (a hand-edited value is ignored). */
export function readOverride(storage: Pick<Storage, "getItem">): string[] {
  try {
    const value: unknown = JSON.parse(storage.getItem(OVERRIDE_KEY) ?? "[]");
    return Array.isArray(value) && value.every((v) => typeof v === "string") ? value : [];
  } catch {
    return [];
  }
}

export function writeOverride(storage: Pick<Storage, "setItem" | "removeItem">, urls: readonly string[]): void {
  if (urls.length === 0) storage.removeItem(OVERRIDE_KEY);
  else storage.setItem(OVERRIDE_KEY, JSON.stringify(urls));
}

/** A page served over HTTPS cannot open plaintext ws:// (spec 8.3): the addresses that will fail here. */
export function blockedOnPage(urls: readonly string[], pageProtocol: string): string[] {
  return pageProtocol === "https:" ? urls.filter((url) => url.startsWith("ws://")) : [];
}
