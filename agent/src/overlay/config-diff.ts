// How a new Nebula config reaches a running nebula: nothing, a reload (SIGHUP) or a restart
// (docs/overlay.md "The agent's nebula"). Pure: text in, decision out.
import { CORE_SCHEMA, load } from "js-yaml";

export type ApplyMode = "none" | "reload" | "restart";

/** A config as parsed: only mappings are walked; every other value is compared as a whole. */
type Node = unknown;

/**
 * Settings a SIGHUP applies that cannot change whether or how the lighthouse is reached. Everything else
 * restarts nebula: a SIGHUP also applies certificates, CAs and the lighthouse list, but keeps the tunnels
 * already up, so a config that breaks them would go unnoticed (and never be rolled back) until they die.
 * A restart makes the new config prove itself with fresh handshakes. Paths are prefixes.
 */
const RELOADABLE: readonly (readonly string[])[] = [
  ["pki", "blocklist"],
  ["pki", "disconnect_invalid"],
  ["firewall"],
  ["punchy"],
  ["logging"],
  ["lighthouse", "interval"],
  ["tun", "mtu"],
];

/** Parses a config; throws an Error with a plain message (never the text: it holds the host key). */
export function parseConfig(text: string): Record<string, Node> {
  let doc: unknown;
  try {
    doc = load(text, { schema: CORE_SCHEMA });
  } catch (err) {
    throw new Error(`the overlay config is not valid YAML: ${(err as { reason?: string }).reason ?? "parse error"}`);
  }
  if (!isMapping(doc)) throw new Error("the overlay config is not a YAML mapping");
  return doc;
}

function isMapping(value: unknown): value is Record<string, Node> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Paths (key lists) of the leaves that differ; a mapping on one side only is one differing leaf. */
export function changedPaths(before: Node, after: Node, path: string[] = []): string[][] {
  if (isMapping(before) && isMapping(after)) {
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    return [...keys].flatMap((key) => changedPaths(before[key], after[key], [...path, key]));
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [path];
}

function isReloadable(path: readonly string[]): boolean {
  return RELOADABLE.some((prefix) => prefix.length <= path.length && prefix.every((key, i) => path[i] === key));
}

/** What applying `next` over the running `current` takes. Both must parse (parseConfig). */
export function applyMode(current: string, next: string): ApplyMode {
  if (current === next) return "none";
  const paths = changedPaths(parseConfig(current), parseConfig(next));
  if (paths.length === 0) return "none";
  return paths.every(isReloadable) ? "reload" : "restart";
}

/** The overlay addresses of the lighthouses the config names (lighthouse.hosts); none for a lighthouse. */
export function lighthouseAddrs(text: string): string[] {
  const lighthouse = parseConfig(text).lighthouse;
  if (!isMapping(lighthouse) || lighthouse.am_lighthouse === true) return [];
  const hosts = lighthouse.hosts;
  return Array.isArray(hosts) ? hosts.map(String) : [];
}
