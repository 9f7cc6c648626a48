// The pure part of a host certificate (docs/overlay.md "Hosts and configs"): placement of the overlay IP in
// its network's CIDR, the certificate details and their validity. No I/O; overlay/hosts.ts signs and stores.
import type { CertificateDetails } from "./cert";
import { formatNetwork, parseNetwork } from "./cert/ipv4";
import { caNotAfter } from "./ca-details";

/** A refusal whose message is safe to show the caller (hooks answer it as a 400). */
export class HostError extends Error {}

/** Host certificates last one calendar year, never beyond their CA. */
export const HOST_VALIDITY_YEARS = 1;

/** A dotted-quad IPv4 address as a uint32 (Go's netip rules: no leading zeros, octets 0-255). */
export function parseAddress(text: string): number {
  let parsed: { ip: number; bits: number } | undefined;
  try {
    parsed = /\//.test(text) ? undefined : parseNetwork(`${text}/32`);
  } catch {
    parsed = undefined;
  }
  if (!parsed) throw new HostError(`overlay_ip must be an IPv4 address (a.b.c.d), got "${text}"`);
  return parsed.ip;
}

/**
 * A network that can hold hosts: IPv4 CIDR text (Go's netip rules) of /30 or wider. Checked on every write
 * of a network as well as of its hosts, so a network once saved never blocks its hosts' writes.
 */
export function overlayNetwork(cidr: string): { ip: number; bits: number } {
  let network: { ip: number; bits: number };
  try {
    network = parseNetwork(cidr);
  } catch {
    throw new HostError(`the overlay network's cidr is not an IPv4 network in CIDR notation (a.b.c.d/n): "${cidr}"`);
  }
  if (network.bits > 30) throw new HostError(`the overlay network ${cidr} is too narrow for hosts (at most /30)`);
  return network;
}

/**
 * The host's certificate network: its address with the network's mask ("10.42.0.5/16"). Refuses an
 * address outside the CIDR, the network and broadcast addresses, and networks narrower than /30.
 */
export function hostNetwork(cidr: string, overlayIp: string): string {
  const network = overlayNetwork(cidr);
  const ip = parseAddress(overlayIp);
  const size = Math.pow(2, 32 - network.bits);
  if (Math.floor(ip / size) !== Math.floor(network.ip / size)) throw new HostError(`overlay_ip ${overlayIp} is outside the network ${cidr}`);
  const offset = ip % size;
  if (offset === 0) throw new HostError(`overlay_ip ${overlayIp} is the network address of ${cidr}`);
  if (offset === size - 1) throw new HostError(`overlay_ip ${overlayIp} is the broadcast address of ${cidr}`);
  return formatNetwork(ip, network.bits);
}

/**
 * A lighthouse's `public_endpoint`: empty, or `host:port` as Nebula's static_host_map reads it. Every peer's
 * config carries it, so one unreadable value made `nebula -test` fail for the whole network.
 */
export function checkPublicEndpoint(text: string): void {
  if (text === "") return;
  const parts = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(text);
  const port = parts ? Number(parts[2]) : 0;
  if (port < 1 || port > 65535) throw new HostError(`public_endpoint must be host:port (for example 203.0.113.7:4242), got "${text}"`);
}

/** The `groups` json field: absent/null is no groups; otherwise an array of non-empty strings. */
export function hostGroups(value: unknown): string[] {
  if (value === null || value === undefined || value === "") return [];
  if (!Array.isArray(value) || value.some((g) => typeof g !== "string" || g.trim() === "")) {
    throw new HostError("groups must be an array of non-empty strings");
  }
  return Array.from(new Set(value as string[]));
}

/** min(now + one calendar year, the CA's notAfter), unix seconds; refuses an expired CA. */
export function hostNotAfter(now: Date, caNotAfterSeconds: number): number {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (caNotAfterSeconds <= nowSeconds) throw new HostError("the organization's overlay CA has expired");
  return Math.min(caNotAfter(now, HOST_VALIDITY_YEARS), caNotAfterSeconds);
}

export interface HostCertificateInput {
  name: string;
  /** From hostNetwork(). */
  network: string;
  groups: string[];
  now: Date;
  caNotAfter: number;
  caFingerprint: string;
  /** The host's 32-byte X25519 public key. */
  publicKey: Uint8Array;
}

export function hostDetails(input: HostCertificateInput): CertificateDetails {
  if (!input.name.trim()) throw new HostError("name is required");
  return {
    name: input.name,
    networks: [input.network],
    groups: input.groups,
    isCA: false,
    issuer: input.caFingerprint,
    notBefore: Math.floor(input.now.getTime() / 1000),
    notAfter: hostNotAfter(input.now, input.caNotAfter),
    publicKey: input.publicKey,
  };
}
