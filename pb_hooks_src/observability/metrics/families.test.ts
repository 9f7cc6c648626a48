import { describe, expect, it } from "vitest";
import { summarizeCertificates } from "../readiness/certificates";
import { readinessSeries } from "../readiness/metrics-text";
import { renderFamily } from "./exposition";
import { certificateFamilies, collectorErrorsFamily, databaseFamilies, readinessLines } from "./families";

const samples = (lines: string[]) => lines.filter((l) => !l.startsWith("#"));

describe("readinessLines", () => {
  it("is the readiness state set of the last probe, its timestamp in whole seconds", () => {
    const results = [{ name: "database", state: "ok" as const }];
    expect(readinessLines({ results, probedAtMs: 1_700_000_000_900 }, "1.2.3")).toEqual(readinessSeries(results, "1.2.3", 1_700_000_000));
  });

  it("before the first probe: not ready and the build info, no check series and no timestamp", () => {
    const lines = readinessLines(undefined, "1.2.3");
    expect(samples(lines)).toEqual(["platform_ready 0", 'platform_build_info{version="1.2.3"} 1']);
    expect(lines.join("\n")).not.toContain("platform_check_");
  });
});

describe("databaseFamilies", () => {
  it("labels records by canonical collection name and counts inactive things", () => {
    const lines = databaseFamilies({ records: [["things", 3], ["organizations", 2]], inactiveThings: 1, revokedBusUsers: 4, databaseBytes: 4096 }).flatMap(renderFamily);
    expect(samples(lines)).toEqual([
      'platform_records{collection="things"} 3',
      'platform_records{collection="organizations"} 2',
      'platform_inactive_records{collection="things"} 1',
      "platform_bus_users_revoked 4",
      "platform_database_size_bytes 4096",
    ]);
  });
});

describe("certificateFamilies", () => {
  it("reports per kind, with the soonest expiry in Unix seconds", () => {
    const now = Date.UTC(2026, 0, 1);
    const day = 86_400_000;
    const scan = summarizeCertificates({ overlay_ca: [now + 3650 * day], overlay_host: [now - day, now + 10 * day + 500, now + 100 * day] }, now);
    expect(samples(certificateFamilies(scan).flatMap(renderFamily))).toEqual([
      'platform_certificates{kind="overlay_ca"} 1',
      'platform_certificates{kind="overlay_host"} 3',
      'platform_certificates_expired{kind="overlay_ca"} 0',
      'platform_certificates_expired{kind="overlay_host"} 1',
      'platform_certificates_expiring{kind="overlay_ca"} 0',
      'platform_certificates_expiring{kind="overlay_host"} 1',
      `platform_certificate_expiry_seconds{kind="overlay_ca"} ${(now + 3650 * day) / 1000}`,
      `platform_certificate_expiry_seconds{kind="overlay_host"} ${(now - day) / 1000}`,
    ]);
  });

  it("omits the expiry series of a kind with nothing in service", () => {
    const scan = summarizeCertificates({ overlay_ca: [], overlay_host: [] }, 0);
    const lines = certificateFamilies(scan).flatMap(renderFamily);
    expect(lines.join("\n")).not.toContain("platform_certificate_expiry_seconds");
    expect(samples(lines)).toContain('platform_certificates{kind="overlay_host"} 0');
  });
});

describe("collectorErrorsFamily", () => {
  it("is a gauge of this scrape's failed collectors", () => {
    expect(renderFamily(collectorErrorsFamily(1))).toEqual([
      "# HELP platform_collector_errors Collectors that failed during this scrape.",
      "# TYPE platform_collector_errors gauge",
      "platform_collector_errors 1",
    ]);
  });
});
