// What `serve --bus` reads of a nats-server config, against the platform's own configuration (pure): the
// client port, which bus.server_url must dial, and the JetStream domain, which bus.persist_domain must
// name. `serve --bus` refuses to start when either differs: the control plane would dial a server that
// is not the one it runs, or hand sites a hub domain no server answers for.
import { withoutCredentials } from "../../common/url-text";

const NATS_DEFAULT_PORT = 4222;

export class ServerPortError extends Error {}

/**
 * The client port of a nats-server config: top-level `port: N` or `listen: [host:]port`, else the
 * server's default. Blocks (websocket, leafnodes, ...) have ports of their own and are skipped.
 */
export function clientPortOf(configText: string): number {
  const keys = topLevelEntries(configText);
  if (keys.has("include")) throw new ServerPortError("the client port must be set in the file itself (top-level include is not followed)");
  const port = keys.has("port") ? portValue("port", keys.get("port") ?? "") : undefined;
  const listen = keys.has("listen") ? portValue("listen", keys.get("listen") ?? "") : undefined;
  // nats-server reads its keys from a map, so with both present either may win.
  if (port !== undefined && listen !== undefined && port !== listen) {
    throw new ServerPortError(`port ${port} and listen ${listen} disagree`);
  }
  return port ?? listen ?? NATS_DEFAULT_PORT;
}

/** The JetStream domain of a nats-server config (`jetstream { domain: … }`): "" when it sets none. */
export function jetstreamDomainOf(configText: string): string {
  const block = topLevelBlocks(configText).get("jetstream");
  const raw = block === undefined ? undefined : topLevelEntries(block).get("domain");
  if (raw === undefined) return "";
  if (raw.startsWith("$")) throw new ServerPortError(`the JetStream domain is a variable (${raw}); write the name`);
  return /^(["'])(.*)\1$/.exec(raw)?.[2] ?? raw;
}

/** The URLs of a validated bus.server_url: one, or the nodes of a cluster (separated by single spaces). */
export function serverUrls(serverUrl: string): string[] {
  return serverUrl.split(" ").filter((url) => url !== "");
}

/** The port of one URL of bus.server_url (nats://, tls://, ...), or the server's default when it names none. */
export function serverUrlPort(url: string): number {
  const match = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/(?:[^@/]*@)?(?:\[[^\]]*\]|[^:/?#]*)(?::(\d+))?(?:[/?#]|$)/.exec(url.trim());
  if (!match) throw new ServerPortError(`bus.server_url ${JSON.stringify(withoutCredentials(url))} is not a URL`);
  return match[1] === undefined ? NATS_DEFAULT_PORT : Number(match[1]);
}

function portValue(key: string, raw: string): number {
  if (raw.startsWith("$")) throw new ServerPortError(`${key} is a variable (${raw}); write the number`);
  const unquoted = /^(["'])(.*)\1$/.exec(raw)?.[2] ?? raw;
  // `listen` takes a bare port or host:port ([v6]:port).
  const digits = key === "listen" ? /^(?:.*:)?(\d+)$/.exec(unquoted)?.[1] : /^\d+$/.exec(raw)?.[0];
  const port = digits === undefined ? NaN : Number(digits);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new ServerPortError(`${key} ${raw} is not a fixed port between 1 and 65535`);
  }
  return port;
}

/** Top-level `key value` entries (lower-cased keys, last occurrence wins); comments and blocks removed. */
function topLevelEntries(text: string): Map<string, string> {
  const entries = new Map<string, string>();
  for (const line of topLevelLines(text)) {
    const match = /^\s*(["']?)([A-Za-z_][\w.-]*)\1\s*(?:[:=]\s*|\s+)(.*?)\s*[,;]?\s*$/.exec(line);
    if (match) entries.set(match[2].toLowerCase(), match[3]);
  }
  return entries;
}

/** The text outside any {...} or [...] block, split into lines, without comments. */
function topLevelLines(text: string): string[] {
  return scanTopLevel(text).lines;
}

/** The inner text of each top-level `key { ... }` block, by lower-cased key. */
function topLevelBlocks(text: string): Map<string, string> {
  return scanTopLevel(text).blocks;
}

function scanTopLevel(text: string): { lines: string[]; blocks: Map<string, string> } {
  const lines: string[] = [];
  const blocks = new Map<string, string>();
  let line = "";
  let depth = 0;
  let block: { key: string; start: number } | undefined;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"' || c === "'") {
      const end = stringEnd(text, i);
      if (depth === 0) line += text.slice(i, end);
      i = end;
      continue;
    }
    const tokenStart = i === 0 || /[\s,;{}[\]]/.test(text[i - 1]);
    if (tokenStart && (c === "#" || text.startsWith("//", i))) {
      while (i < text.length && text[i] !== "\n") i++;
      continue;
    }
    if (c === "{" || c === "[") {
      // `key {`, `key: {` or `key = {` opens a block named by the line so far.
      const key = depth === 0 && c === "{" ? /^\s*(["']?)([A-Za-z_][\w.-]*)\1\s*[:=]?\s*$/.exec(line)?.[2] : undefined;
      if (key) block = { key: key.toLowerCase(), start: i + 1 };
      depth++;
    } else if (c === "}" || c === "]") {
      depth = Math.max(0, depth - 1);
      if (depth === 0 && block) {
        blocks.set(block.key, text.slice(block.start, i));
        block = undefined;
      }
    } else if (c === "\n" && depth === 0) {
      lines.push(line);
      line = "";
    } else if (depth === 0) line += c;
    i++;
  }
  lines.push(line);
  return { lines, blocks };
}

/** Index just past the string starting at `start` (double quotes take backslash escapes, single none). */
function stringEnd(text: string, start: number): number {
  const quoteChar = text[start];
  let i = start + 1;
  while (i < text.length && text[i] !== quoteChar) i += quoteChar === '"' && text[i] === "\\" ? 2 : 1;
  return Math.min(i + 1, text.length);
}
