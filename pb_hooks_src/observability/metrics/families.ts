// The collectors' series (spec 4.3) from what each collector read. Pure: runs in goja and in Node.
import { CERTIFICATE_KINDS, type CertificateScan } from "../readiness/certificates";
import { CHECK_STATES, type CheckState } from "../../../common/readiness/states";
import { family, renderFamily, single, type MetricFamily, type Sample } from "./exposition";
import { CLAIM_SIZE_BOUNDS, type ClaimSizes } from "./database";
import { MAX_ACCOUNT_JWT_BYTES } from "../../bus/claims";

/** What the readiness collector found: the last probe, or none yet. */
export interface ReadinessView {
  results: readonly { name: string; state: CheckState }[];
  probedAtMs: number;
}

/**
 * Readiness as a state set. Before the first probe completes there is nothing to report per check:
 * platform_ready is 0 (as /api/ready answers 503 then) and only platform_build_info accompanies it; no
 * check series and no timestamp, which would claim a probe that never ran.
 */
export function readinessLines(snapshot: ReadinessView | undefined, version: string): string[] {
  const results = snapshot ? [...snapshot.results].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) : [];
  const ready = snapshot && !results.some((r) => r.state === "fail") ? 1 : 0;
  return [
    single("platform_ready", "gauge", "1 when the control plane is ready (no check fails), 0 otherwise.", ready),
    family(
      "platform_check_state",
      "gauge",
      "Readiness check state: 1 on the current state, 0 on the others.",
      results.flatMap((r) => CHECK_STATES.map((state): Sample => ({ labels: [["name", r.name], ["state", state]], value: r.state === state ? 1 : 0 }))),
    ),
    family(
      "platform_check_timestamp_seconds",
      "gauge",
      "Unix time of the last readiness probe; a stale value means the prober is wedged.",
      snapshot ? [{ value: Math.floor(snapshot.probedAtMs / 1000) }] : [],
    ),
    family("platform_build_info", "gauge", "Build information; value is always 1.", [{ labels: [["version", version]], value: 1 }]),
  ].flatMap(renderFamily);
}

/** What the database collector counted; label values are the collections' canonical names (e.g. "things"). */
export interface DatabaseCounts {
  records: ReadonlyArray<readonly [string, number]>;
  inactiveThings: number;
  revokedBusUsers: number;
  claimSizes: ClaimSizes;
  databaseBytes: number;
}

export function databaseFamilies(counts: DatabaseCounts): MetricFamily[] {
  return [
    family(
      "platform_records",
      "gauge",
      "Rows in a platform collection (things counts devices configured, not availability).",
      counts.records.map(([collection, value]) => ({ labels: [["collection", collection]], value })),
    ),
    family("platform_inactive_records", "gauge", "Rows with active = false; only things is counted (gateways included).", [
      { labels: [["collection", "things"]], value: counts.inactiveThings },
    ]),
    single("platform_bus_users_revoked", "gauge", "User keys on a bus account revocation list.", counts.revokedBusUsers),
    single("platform_database_size_bytes", "gauge", "Database file plus its write-ahead and shared-memory files; excludes uploaded files.", counts.databaseBytes),
    family(
      "platform_account_claims",
      "gauge",
      "Bus account claims whose signed size is at most at_most_bytes (cumulative, +Inf counting every claim; no label per organization).",
      [
        ...CLAIM_SIZE_BOUNDS.map((bound, i): Sample => ({ labels: [["at_most_bytes", String(bound)]], value: counts.claimSizes.atMost[i] })),
        { labels: [["at_most_bytes", "+Inf"]], value: counts.claimSizes.accounts },
      ],
    ),
    single("platform_account_claim_max_bytes", "gauge", "Size of the largest bus account claim, in bytes.", counts.claimSizes.largestBytes),
    single("platform_account_claim_limit_bytes", "gauge", "The largest account claim the bus takes (its maximum payload); a write that would pass it is refused.", MAX_ACCOUNT_JWT_BYTES),
  ];
}

/** The certificate series from the readiness prober's scan; a kind with nothing in service has no expiry series. */
export function certificateFamilies(scan: CertificateScan): MetricFamily[] {
  const perKind = (value: (kind: (typeof CERTIFICATE_KINDS)[number]) => number | null): Sample[] =>
    CERTIFICATE_KINDS.flatMap((kind) => {
      const v = value(kind);
      return v === null ? [] : [{ labels: [["kind", kind]] as const, value: v }];
    });
  return [
    family("platform_certificates", "gauge", "Overlay certificates in service.", perKind((k) => scan[k].inService)),
    family("platform_certificates_expired", "gauge", "Overlay certificates in service whose expiry has passed.", perKind((k) => scan[k].expired)),
    family(
      "platform_certificates_expiring",
      "gauge",
      "Overlay certificates within the warning window (30 days for overlay_host, 90 for overlay_ca).",
      perKind((k) => scan[k].expiring),
    ),
    family(
      "platform_certificate_expiry_seconds",
      "gauge",
      "Unix time of the soonest certificate expiry of the kind.",
      perKind((k) => {
        const soonest = scan[k].soonestMs;
        return soonest === null ? null : Math.floor(soonest / 1000);
      }),
    ),
  ];
}

export function collectorErrorsFamily(failed: number): MetricFamily {
  return single("platform_collector_errors", "gauge", "Collectors that failed during this scrape.", failed);
}
