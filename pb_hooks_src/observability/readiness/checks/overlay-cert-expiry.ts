/// <reference path="../../../../build/types/types.d.ts" />
// overlay_cert_expiry (spec 4.3): warns, never fails, when an active host's certificate expires within 30
// days or a CA certificate within 90; skipped when no overlay certificate was issued. Its one scan of the
// database also feeds the platform_certificate* series (kept in the store, snapshot.ts).
import { collectionNames } from "../../../schema/names";
import { type CertificateKind, type CertificateScan, DAY_MS, WARNING_WINDOW_MS, summarizeCertificates } from "../certificates";
import { writeCertificateScan } from "../snapshot";
import { MIGRATE_FIX, schemaGap, type Check, type CheckOutcome } from "./check";

export const overlayCertExpiry: Check = ({ app, config, nowMs }) => {
  writeCertificateScan(undefined); // a scan that throws leaves no stale series behind
  const n = collectionNames(config);
  const gap = schemaGap(app, {
    [n.overlay_ca]: ["cert", "not_after", "next_cert", "next_not_after"],
    [n.overlay_hosts]: ["cert", "not_after", "active"],
  });
  if (gap) return { state: "skipped", detail: `could not look: ${gap}`, fix: MIGRATE_FIX };
  const scan = summarizeCertificates(
    {
      // The incoming CA of a prepared rotation is trusted too, so it is in service.
      overlay_ca: expiries(app, `SELECT not_after AS t FROM {{${n.overlay_ca}}} WHERE cert != '' UNION ALL SELECT next_not_after FROM {{${n.overlay_ca}}} WHERE next_cert != ''`),
      overlay_host: expiries(app, `SELECT not_after AS t FROM {{${n.overlay_hosts}}} WHERE active = TRUE AND cert != ''`),
    },
    nowMs,
  );
  writeCertificateScan(scan);
  return expiryOutcome(scan);
};

function expiries(app: CoreApp, sql: string): number[] {
  const rows = arrayOf(new DynamicModel({ t: "" })) as { t: string }[];
  app.db().newQuery(sql).all(rows);
  return rows.map((r) => Date.parse(r.t.replace(" ", "T"))).filter((t) => !Number.isNaN(t));
}

const LABEL: Record<CertificateKind, string> = { overlay_host: "host certificate", overlay_ca: "CA certificate" };

/** The check's outcome from the scan (pure; no tenant names: the report is public). */
export function expiryOutcome(scan: CertificateScan): CheckOutcome {
  if (scan.overlay_ca.inService + scan.overlay_host.inService === 0) return { state: "skipped", detail: "no overlay certificates issued", fix: "Nothing to do: the check applies once an organization has overlay hosts or a CA." };
  const problems: string[] = [];
  for (const kind of ["overlay_host", "overlay_ca"] as const) {
    const { expired, expiring, soonestMs } = scan[kind];
    if (expired + expiring === 0 || soonestMs === null) continue;
    const window = `${WARNING_WINDOW_MS[kind] / DAY_MS} days`;
    problems.push(`${expired} ${LABEL[kind]}(s) expired and ${expiring} expiring within ${window} (soonest ${new Date(soonestMs).toISOString()})`);
  }
  if (problems.length === 0) return { state: "ok" };
  return {
    state: "warn",
    detail: problems.join("; "),
    fix: "Renew each affected host: save its overlay_hosts row with an empty cert (it is re-signed with a new key pair), then redeploy its config_yaml. A CA near expiry is replaced with POST /api/org/overlay-ca/rotate (prepare, commit, finish).",
  };
}
