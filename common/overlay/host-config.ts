// A Nebula config a host runs as is (docs/overlay.md "Hosts and configs"), as YAML text from a small pure
// emitter: mappings, sequences, scalars and literal blocks are all a config needs.

export type Yaml = string | number | boolean | null | Yaml[] | { [key: string]: Yaml };

const PLAIN = /^[A-Za-z0-9_./-][A-Za-z0-9_./:-]*$/;
const RESERVED = /^(true|false|yes|no|on|off|y|n|null|~|[-+]?[0-9.]+(e[-+]?[0-9]+)?|\.inf|\.nan)$/i;

/** A scalar: plain when unambiguous, a JSON string (valid YAML double quotes) otherwise. */
export function yamlScalar(value: string | number | boolean | null): string {
  if (value === null) return "null";
  if (typeof value !== "string") return String(value);
  return PLAIN.test(value) && !RESERVED.test(value) ? value : JSON.stringify(value);
}

function isScalar(value: Yaml): value is string | number | boolean | null {
  return value === null || typeof value !== "object";
}

/** Multi-line strings (PEM) become literal blocks (`|`), keeping every line exact. */
function emitValue(value: Yaml, indent: string): string {
  if (typeof value === "string" && value.includes("\n")) {
    const body = value.endsWith("\n") ? value.slice(0, -1) : value;
    const chomp = value.endsWith("\n") ? "" : "-";
    return ` |${chomp}\n${body.split("\n").map((line) => (line ? `${indent}  ${line}` : "")).join("\n")}\n`;
  }
  if (isScalar(value)) return ` ${yamlScalar(value)}\n`;
  if (Array.isArray(value)) {
    if (value.length === 0) return " []\n";
    return `\n${emitSequence(value, indent)}`;
  }
  if (Object.keys(value).length === 0) return " {}\n";
  return `\n${emitMapping(value, `${indent}  `)}`;
}

function emitMapping(map: { [key: string]: Yaml }, indent: string): string {
  return Object.keys(map)
    .map((key) => `${indent}${yamlScalar(key)}:${emitValue(map[key], indent)}`)
    .join("");
}

function emitSequence(list: Yaml[], indent: string): string {
  return list
    .map((item) => {
      if (isScalar(item) && !(typeof item === "string" && item.includes("\n"))) return `${indent}- ${yamlScalar(item)}\n`;
      if (Array.isArray(item)) return `${indent}-${emitValue(item, `${indent}  `).replace(/^\n/, "\n")}`;
      if (typeof item === "object" && item !== null) {
        // "- key: value" with the rest of the mapping aligned under the first key.
        const inner = emitMapping(item, `${indent}  `);
        return `${indent}- ${inner.slice(indent.length + 2)}`;
      }
      return `${indent}-${emitValue(item, indent)}`;
    })
    .join("");
}

/** A document from a top-level mapping. */
export function toYaml(document: { [key: string]: Yaml }): string {
  return emitMapping(document, "");
}

export interface Lighthouse {
  overlayIp: string;
  /** "host:port" where it is reachable from the underlay. */
  publicEndpoint: string;
}

export interface HostConfigInput {
  /** PEM of the CA certificate(s) the host trusts. */
  caPem: string;
  certPem: string;
  keyPem: string;
  isLighthouse: boolean;
  /** The network's other lighthouses with a public endpoint. */
  lighthouses: Lighthouse[];
  listenPort?: number;
  tunDev?: string;
}

export const DEFAULT_LISTEN_PORT = 4242;
export const DEFAULT_TUN_DEV = "nebula1";

export function hostConfig(input: HostConfigInput): { [key: string]: Yaml } {
  const lighthouses = input.isLighthouse ? [] : input.lighthouses;
  const staticHostMap: { [key: string]: Yaml } = {};
  for (const l of lighthouses) staticHostMap[l.overlayIp] = [l.publicEndpoint];
  return {
    // blocklist is stored empty: every read fills in the CA's current list (withBlocklistItems; docs/overlay.md
    // "Deactivation"). disconnect_invalid is explicit: nebula before 1.8 defaults it to false, and then keeps
    // a live tunnel to a peer that turned invalid (before 1.7, a blocklisted one too) after a reload.
    pki: { ca: input.caPem, cert: input.certPem, key: input.keyPem, blocklist: [], disconnect_invalid: true },
    static_host_map: staticHostMap,
    lighthouse: { am_lighthouse: input.isLighthouse, interval: 60, hosts: lighthouses.map((l) => l.overlayIp) },
    listen: { host: "0.0.0.0", port: input.listenPort ?? DEFAULT_LISTEN_PORT },
    punchy: { punch: true, respond: true },
    tun: { disabled: false, dev: input.tunDev ?? DEFAULT_TUN_DEV, drop_local_broadcast: false, drop_multicast: false, mtu: 1300 },
    logging: { level: "info", format: "text" },
    firewall: {
      outbound_action: "drop",
      inbound_action: "drop",
      conntrack: { tcp_timeout: "12m", udp_timeout: "3m", default_timeout: "10m" },
      outbound: [{ port: "any", proto: "any", host: "any" }],
      inbound: [{ port: "any", proto: "icmp", host: "any" }],
    },
  };
}

export function hostConfigYaml(input: HostConfigInput): string {
  return toYaml(hostConfig(input));
}

// pki.blocklist as hostConfig emits it: a key at the pki mapping's indent, followed by `[]` or by its items
// at the same indent. Nothing else in a config sits at that indent under that key (PEM lines are deeper).
const BLOCKLIST_ENTRY = /^ {2}blocklist:(?: \[\]\n|\n(?: {2}- [^\n]*\n)*)/m;

/**
 * pki.blocklist's entries as the emitter writes a sequence there, one `  - <fingerprint>` line each ("" for
 * none). Rendered apart from the config so that a reader renders a CA's list once (overlay/current-blocklist.ts).
 */
export function blocklistItems(list: readonly string[]): string {
  return list.map((f) => `  - ${yamlScalar(f)}\n`).join("");
}

/** The entries without one fingerprint's line (unchanged when it is absent). */
export function withoutItem(items: string, fingerprint: string): string {
  return `\n${items}`.replace(`\n  - ${yamlScalar(fingerprint)}\n`, "\n").slice(1);
}

/** The config with pki.blocklist's entries replaced by `items`; a text without the entry is returned unchanged. */
export function withBlocklistItems(configYaml: string, items: string): string {
  return configYaml.replace(BLOCKLIST_ENTRY, () => `  blocklist:${items ? `\n${items}` : " []\n"}`);
}

/**
 * withBlocklistItems(configYaml, withoutItem(items, fingerprint)) joined in one pass: a served config is
 * the one copy of a list that may hold 10,000 lines, made per record of a page (overlay/current-blocklist.ts).
 */
export function withBlocklistItemsExcept(configYaml: string, items: string, fingerprint: string): string {
  const entry = BLOCKLIST_ENTRY.exec(configYaml);
  if (!entry) return configYaml;
  const own = `  - ${yamlScalar(fingerprint)}\n`;
  let at = fingerprint ? items.indexOf(own) : -1;
  // A line starts the text or follows a newline; a match elsewhere is inside another line.
  while (at > 0 && items[at - 1] !== "\n") at = items.indexOf(own, at + 1);
  const kept = at < 0 ? [items] : [items.slice(0, at), items.slice(at + own.length)];
  const served = kept[0] || kept[1] ? ["  blocklist:\n", ...kept] : ["  blocklist: []\n"];
  return [configYaml.slice(0, entry.index), ...served, configYaml.slice(entry.index + entry[0].length)].join("");
}
