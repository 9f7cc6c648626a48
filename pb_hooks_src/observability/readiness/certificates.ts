// Overlay certificate expiry (spec 4.3 overlay_cert_expiry and the platform_certificate* series): one
// summary per kind from one scan of the database. Pure: runs in goja and in Node.

export type CertificateKind = "overlay_ca" | "overlay_host";
export const CERTIFICATE_KINDS: readonly CertificateKind[] = ["overlay_ca", "overlay_host"];

export const DAY_MS = 86_400_000;
/** Warning windows of 8.1: 30 days for host certificates, 90 for CA certificates. */
export const WARNING_WINDOW_MS: Readonly<Record<CertificateKind, number>> = { overlay_host: 30 * DAY_MS, overlay_ca: 90 * DAY_MS };

export interface CertificateKindSummary {
  /** Certificates in service (active hosts; every CA certificate still trusted). */
  inService: number;
  expired: number;
  /** Not yet expired, but within the kind's warning window. */
  expiring: number;
  /** Unix milliseconds of the soonest expiry, null when none is in service. */
  soonestMs: number | null;
}

export type CertificateScan = Record<CertificateKind, CertificateKindSummary>;

/** Summarizes expiry times (Unix milliseconds) per kind against `nowMs`. */
export function summarizeCertificates(expiries: Readonly<Record<CertificateKind, readonly number[]>>, nowMs: number): CertificateScan {
  const summarize = (kind: CertificateKind): CertificateKindSummary => {
    const times = expiries[kind];
    let soonestMs: number | null = null;
    let expired = 0;
    let expiring = 0;
    for (const t of times) {
      if (soonestMs === null || t < soonestMs) soonestMs = t;
      if (t <= nowMs) expired++;
      else if (t - nowMs <= WARNING_WINDOW_MS[kind]) expiring++;
    }
    return { inService: times.length, expired, expiring, soonestMs };
  };
  return { overlay_ca: summarize("overlay_ca"), overlay_host: summarize("overlay_host") };
}
