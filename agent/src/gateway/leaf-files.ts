// The leaf server's files under state_dir/gateway/: the server config (written when the gateway is
// configured, from the fields pinned then), the preload of the account and $SYS tokens (an included file,
// rewritten whenever a token changes, then a SIGHUP), the creds file of the uplink, the JetStream store,
// and applied.json (the fields the config was written from, to tell a changed hub identity).
import { basename, join } from "node:path";
import type { LeafConfig } from "../../../common/bus/leaf-config";

export interface LeafFiles {
  dir: string;
  config: string;
  preload: string;
  creds: string;
  applied: string;
  store: string;
}

export function leafFiles(stateDir: string): LeafFiles {
  const dir = join(stateDir, "gateway");
  return {
    dir,
    config: join(dir, "leaf.conf"),
    preload: join(dir, "preload.conf"),
    creds: join(dir, "leaf.creds"),
    applied: join(dir, "applied.json"),
    store: join(dir, "jetstream"),
  };
}

/**
 * Pings bound how long a silently dropped uplink goes unnoticed (nats-server issue 3682): the server
 * closes a connection whose pings go unanswered max + 1 intervals in a row, so ≤ 30 s here.
 */
export const LEAF_PINGS: LeafPings = { interval: "10s", max: 2 };

export interface LeafPings {
  /** A nats-server duration (ping_interval). */
  interval: string;
  /** Unanswered pings tolerated (ping_max). */
  max: number;
}

export interface LeafPlaces {
  files: LeafFiles;
  /** host:port of the client listener (gateway.listen). */
  listen: string;
  /** Loopback monitoring port; 0: none. */
  monitorPort: number;
  /** The agent leaves it unset (LEAF_PINGS); the e2e harness shortens it to see a stopped hub within seconds. */
  pings?: LeafPings;
}

/** A nats-server double-quoted string: JSON's escapes are the server's too for these values. */
const q = (value: string) => JSON.stringify(value);

/** The fields the server config is written from: changing any of them needs the leaf configured again. */
export const PINNED_FIELDS = ["domain", "operator_jwt", "sys_account_pub", "account_pub", "hub_leaf_url", "hub_domain"] as const satisfies readonly (keyof LeafConfig)[];
export type Pinned = Pick<LeafConfig, (typeof PINNED_FIELDS)[number]>;

export function pinnedOf(config: Pinned): Pinned {
  return Object.fromEntries(PINNED_FIELDS.map((field) => [field, config[field]])) as unknown as Pinned;
}

/** The pinned fields whose served value differs from the applied one. */
export function pinnedChanges(applied: Pinned, served: Pinned): string[] {
  return PINNED_FIELDS.filter((field) => applied[field] !== served[field]);
}

/** The server config: operator mode with a memory resolver whose tokens come from the included preload. */
export function renderLeafConfig(pinned: Pinned, places: LeafPlaces): string {
  const { files, pings = LEAF_PINGS } = places;
  return `# Written by the agent (gateway mode) from GET /api/me/leaf-config; re-run the leaf configuration to change it.
server_name: ${q(pinned.domain)}
listen: ${q(places.listen)}
${places.monitorPort > 0 ? `http: ${q(`127.0.0.1:${places.monitorPort}`)}\n` : ""}ping_interval: ${q(pings.interval)}
ping_max: ${pings.max}

operator: ${q(pinned.operator_jwt)}
system_account: ${q(pinned.sys_account_pub)}
resolver: MEMORY
# nats-server resolves an include relative to this file's directory (an absolute path is not accepted).
include ${q(basename(files.preload))}

jetstream {
  store_dir: ${q(files.store)}
  domain: ${q(pinned.domain)}
}

leafnodes {
  remotes: [
    {
      url: ${q(pinned.hub_leaf_url)}
      account: ${q(pinned.account_pub)}
      credentials: ${q(files.creds)}
      # Only hub_leaf_url: the hub's INFO advertises its own listener addresses (loopback or private ones
      # behind the public name), which from a site lead elsewhere, even around a dead link to the hub.
      ignore_discovered_servers: true
    }
  ]
}
`;
}

/** The account and $SYS tokens; the reload (SIGHUP) applies a revocation or a suspension they carry. */
export function renderPreload(config: Pick<LeafConfig, "account_pub" | "account_jwt" | "sys_account_pub" | "sys_account_jwt">): string {
  return `resolver_preload {
  ${q(config.account_pub)}: ${q(config.account_jwt)}
  ${q(config.sys_account_pub)}: ${q(config.sys_account_jwt)}
}
`;
}
