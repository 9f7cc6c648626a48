// bus.log_to_console and overlay.log_to_console (spec 8.3, "verbose logging"): what one committed write
// of a credential record did, as one line. A line names records by name, public key or fingerprint and
// never carries a seed, a private key, a JWT, a creds file or a host config. Pure, so it is tested apart.
import type { WriteAction } from "../lib/effects";
import { jwtIssuedAt } from "../bus/issued-at";

export type VerboseKind = "bus_users" | "bus_accounts" | "overlay_ca" | "overlay_networks" | "overlay_hosts";

/** The kinds each domain's flag logs. */
export const VERBOSE_KINDS = {
  bus: ["bus_users", "bus_accounts"],
  overlay: ["overlay_ca", "overlay_networks", "overlay_hosts"],
} as const satisfies Record<"bus" | "overlay", readonly VerboseKind[]>;

/** A field of the committed record as text (a JSON field as its JSON). */
export type Read = (field: string) => string;

const DESCRIBE: Record<VerboseKind, (read: Read) => string> = {
  bus_users: (read) =>
    `bus: user "${read("name")}" (key ${read("public_key")}) %s: ${state(read, "suspended")}, credential issued ${issued(read("jwt"))}`,
  bus_accounts: (read) =>
    `bus: account ${read("public_key")} of organization ${read("organization")} %s: ${state(read, "suspended")}, ` +
    `${count(read("signing_keys"))} signing keys, ${count(read("revocations"))} revoked user keys`,
  overlay_ca: (read) =>
    `overlay: CA ${read("fingerprint")} of organization ${read("organization")} %s: valid until ${read("not_after")}` +
    (read("rotation") ? `, rotation ${read("rotation")} to CA ${read("next_fingerprint")}` : "") +
    `, ${count(read("revoked_fingerprints"))} blocked host certificates`,
  overlay_networks: (read) => `overlay: network "${read("name")}" ${read("cidr")} of organization ${read("organization")} %s`,
  overlay_hosts: (read) =>
    `overlay: host "${read("name")}" ${read("overlay_ip")} %s: ${state(read, "inactive")}, certificate ` +
    (read("fingerprint") ? `${read("fingerprint")} valid until ${read("not_after")}` : "none"),
};

export function verboseLine(kind: VerboseKind, action: WriteAction, read: Read): string {
  return DESCRIBE[kind](read).replace("%s", `${action}d`);
}

/** The outcome of one account claim's publication. */
export function publicationLine(accountKey: string, active: boolean, ok: boolean, message: string): string {
  return `bus: claim of account ${accountKey} (${active ? "active" : "suspended"}) published: ${ok ? "confirmed" : "not confirmed"}${message ? ` (${message})` : ""}`;
}

function state(read: Read, off: string): string {
  return read("active") === "true" ? "active" : off;
}

function issued(jwt: string): string {
  const iat = jwtIssuedAt(jwt);
  return iat === 0 ? "none" : new Date(iat * 1000).toISOString();
}

/** Entries of a JSON list or object field (0 when blank or unreadable). */
function count(json: string): number {
  try {
    const value: unknown = JSON.parse(json || "null");
    if (Array.isArray(value)) return value.length;
    return typeof value === "object" && value !== null ? Object.keys(value).length : 0;
  } catch {
    return 0;
  }
}
