// The pure part of the overlay's cert-audit (spec 4.2; docs/overlay.md "cert-audit"). No I/O; overlay/routes.ts
// reads the rows.
import { parseNetwork } from "./cert/ipv4";
import { parseAddress } from "./host-details";

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
