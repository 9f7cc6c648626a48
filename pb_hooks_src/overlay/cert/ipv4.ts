// IPv4 networks in CIDR text <-> the (ip, mask) uint32 pairs of v1 certificates. A host's network is its own
// address with the mask of its overlay network ("10.42.0.5/16"): Nebula takes the mask as the routable
// overlay subnet, so "/32" (a single-host mask) is a different, and wrong, certificate.
import { CertificateFormatError } from "./errors";

const TWO_POW_32 = 4294967296;

/**
 * Parses "a.b.c.d/n" as Go's netip.ParsePrefix does for IPv4: decimal octets 0-255 without leading zeros,
 * n from 0 to 32. The address is kept as given, not masked down to the network address.
 */
export function parseNetwork(cidr: string): { ip: number; bits: number } {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(cidr);
  const parts = m ? m.slice(1) : [];
  if (!m || parts.some((p) => p.length > 1 && p[0] === "0")) throw new CertificateFormatError(`not an IPv4 network in CIDR notation: ${cidr}`);
  const octets = parts.slice(0, 4).map(Number);
  const bits = Number(parts[4]);
  if (octets.some((o) => o > 255) || bits > 32) throw new CertificateFormatError(`not an IPv4 network in CIDR notation: ${cidr}`);
  return { ip: ((octets[0] * 256 + octets[1]) * 256 + octets[2]) * 256 + octets[3], bits };
}

/** Go's net.CIDRMask(bits, 32) read as a big-endian uint32. */
export function maskOf(bits: number): number {
  return bits === 0 ? 0 : TWO_POW_32 - Math.pow(2, 32 - bits);
}

/**
 * The prefix length of a mask as Go's net.IPMask.Size reports it, which Nebula uses on unmarshal: the count
 * of leading ones, or 0 when the mask is not ones-then-zeros (Nebula then reads the network as "/0").
 */
export function bitsOf(mask: number): number {
  for (let bits = 0; bits <= 32; bits++) if (maskOf(bits) === mask) return bits;
  return 0;
}

export function formatNetwork(ip: number, bits: number): string {
  return `${addressText(ip)}/${bits}`;
}

export function addressText(ip: number): string {
  return [Math.floor(ip / 16777216) % 256, Math.floor(ip / 65536) % 256, Math.floor(ip / 256) % 256, ip % 256].join(".");
}
