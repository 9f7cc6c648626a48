// The pure parts of the overlay's revocation and audit (spec 3.2 things.active item 4, 4.2 cert-audit;
// docs/overlay.md "Deactivation" and "cert-audit"). No I/O; overlay/hosts.ts and overlay/routes.ts read rows.
import { parseNetwork } from "./cert/ipv4";
import { parseAddress } from "./host-details";

/** A blocklist: the non-empty fingerprints, lowercased, without duplicates, sorted (stable configs). */
export function blocklist(fingerprints: readonly unknown[], exclude = ""): string[] {
  const set = new Set<string>();
  for (const f of fingerprints) {
    if (typeof f !== "string") continue;
    const v = f.trim().toLowerCase();
    if (v && v !== exclude.trim().toLowerCase()) set.add(v);
  }
  return Array.from(set).sort();
}

/** overlay_ca.revoked_fingerprints as stored (json array of strings); anything else reads as none. */
export function revokedList(value: unknown): string[] {
  return Array.isArray(value) ? blocklist(value) : [];
}

/** The list with `fingerprint` added (unchanged when blank or already present). */
export function withRevoked(list: readonly string[], fingerprint: string): string[] {
  return blocklist([...list, fingerprint]);
}

/**
 * Whether a host certificate's network no longer matches its overlay network: true when the certificate
 * holds anything but one network whose mask is the network's and whose address is the host's overlay_ip
 * inside the network's CIDR. undefined when the network's cidr (or the host's overlay_ip) cannot be read.
 */
export function certificateStale(certNetworks: readonly string[], cidr: string, overlayIp: string): boolean | undefined {
  let network: { ip: number; bits: number };
  let ip: number;
  try {
    network = parseNetwork(cidr);
    ip = parseAddress(overlayIp);
  } catch {
    return undefined;
  }
  if (certNetworks.length !== 1) return true;
  let cert: { ip: number; bits: number };
  try {
    cert = parseNetwork(certNetworks[0]);
  } catch {
    return true;
  }
  if (cert.bits !== network.bits || cert.ip !== ip) return true;
  const size = Math.pow(2, 32 - network.bits);
  return Math.floor(cert.ip / size) !== Math.floor(network.ip / size);
}
