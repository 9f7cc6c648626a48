// The pure part of an organization's overlay CA: its certificate details and validity. No I/O; the sidecar
// makes the key and the signature (overlay/ca.ts), hashing is injected (cert/ Sha256Hex).
import type { CertificateDetails } from "./cert";

/** The CA's name in its certificate and row. */
export function caName(organizationCode: string): string {
  return `${organizationCode} overlay CA`;
}

/**
 * `now` plus whole calendar years, in unix seconds (UTC; 29 February lands on 1 March of a common year,
 * as Date does). Throws for fewer than one year: configuration validation refuses that already.
 */
export function caNotAfter(now: Date, years: number): number {
  if (!Number.isInteger(years) || years < 1) throw new Error(`overlay CA validity must be a whole number of years, at least 1, got ${years}`);
  const end = new Date(now.getTime());
  end.setUTCFullYear(end.getUTCFullYear() + years);
  return Math.floor(end.getTime() / 1000);
}

/** A self-signed v1 CA: no networks or groups (so it constrains no host), ed25519 public key. */
export function caDetails(organizationCode: string, now: Date, years: number, publicKey: Uint8Array): CertificateDetails {
  return {
    name: caName(organizationCode),
    networks: [],
    groups: [],
    isCA: true,
    issuer: "",
    notBefore: Math.floor(now.getTime() / 1000),
    notAfter: caNotAfter(now, years),
    publicKey,
  };
}
