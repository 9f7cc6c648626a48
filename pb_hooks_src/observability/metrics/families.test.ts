import { describe, expect, it } from "vitest";
import { summarizeCertificates } from "../readiness/certificates";
import { renderFamily } from "./exposition";
import { certificateFamilies, collectorErrorsFamily, databaseFamilies, readinessLines } from "./families";

const samples = (lines: string[]) => lines.filter((l) => !l.startsWith("#"));

describe("readinessLines", () => {
  const lines = readinessLines(
    {
      results: [
        { name: "schema", state: "warn" },
        { name: "database", state: "ok" },
      ],
      probedAtMs: 1_773_144_000_900,
    },
    "1.2.3",
  );

  it("has HELP and TYPE for every series", () => {
    for (const metric of ["platform_ready", "platform_check_state", "platform_check_timestamp_seconds", "platform_build_info"]) {
      expect(lines).toContain(`# TYPE ${metric} gauge`);
      expect(lines.some((l) => l.startsWith(`# HELP ${metric} `))).toBe(true);
    }
  });

  it("emits one series per check per state, 1 on the current state only, sorted by name", () => {
    expect(lines.filter((l) => l.startsWith("platform_check_state{"))).toEqual([
      'platform_check_state{name="database",state="ok"} 1',
      'platform_check_state{name="database",state="warn"} 0',
      'platform_check_state{name="database",state="fail"} 0',
      'platform_check_state{name="database",state="skipped"} 0',
      'platform_check_state{name="schema",state="ok"} 0',
      'platform_check_state{name="schema",state="warn"} 1',
      'platform_check_state{name="schema",state="fail"} 0',
      'platform_check_state{name="schema",state="skipped"} 0',
    ]);
  });

  it("reports ready 1 with warnings, the probe time in whole seconds and build info", () => {
    expect(lines).toContain("platform_ready 1");
    expect(lines).toContain("platform_check_timestamp_seconds 1773144000");
    expect(lines).toContain('platform_build_info{version="1.2.3"} 1');
  });

  it("reports ready 0 when a check fails", () => {
    const failing = readinessLines({ results: [{ name: "bus_trust", state: "fail" }, { name: "x", state: "ok" }], probedAtMs: 1_500 }, "v");
    expect(failing).toContain("platform_ready 0");
    expect(failing).toContain('platform_check_state{name="bus_trust",state="fail"} 1');
  });

  it("escapes label values", () => {
    const escaped = readinessLines({ results: [{ name: 'a"b\\c\nd', state: "ok" }], probedAtMs: 0 }, 'v"1\\\n');
    expect(escaped).toContain('platform_check_state{name="a\\"b\\\\c\\nd",state="ok"} 1');
    expect(escaped).toContain('platform_build_info{version="v\\"1\\\\\\n"} 1');
  });

  it("before the first probe: not ready and the build info, no check series and no timestamp", () => {
    const before = readinessLines(undefined, "1.2.3");
    expect(samples(before)).toEqual(["platform_ready 0", 'platform_build_info{version="1.2.3"} 1']);
    expect(before.join("\n")).not.toContain("platform_check_");
  });
});

describe("databaseFamilies", () => {
  it("labels records by canonical collection name, counts inactive things and buckets the account claims' sizes", () => {
    const claimSizes = { atMost: [2, 3, 3, 3, 3], accounts: 4, largestBytes: 1_100_000 };
    const lines = databaseFamilies({ records: [["things", 3], ["organizations", 2]], inactiveThings: 1, revokedBusUsers: 4, claimSizes, databaseBytes: 4096 }).flatMap(renderFamily);
    expect(samples(lines)).toEqual([
      'platform_records{collection="things"} 3',
      'platform_records{collection="organizations"} 2',
      'platform_inactive_records{collection="things"} 1',
      "platform_bus_users_revoked 4",
      "platform_database_size_bytes 4096",
      'platform_account_claims{at_most_bytes="16384"} 2',
      'platform_account_claims{at_most_bytes="65536"} 3',
      'platform_account_claims{at_most_bytes="262144"} 3',
      'platform_account_claims{at_most_bytes="524288"} 3',
      'platform_account_claims{at_most_bytes="1048576"} 3',
      'platform_account_claims{at_most_bytes="+Inf"} 4',
      "platform_account_claim_max_bytes 1100000",
      "platform_account_claim_limit_bytes 1048576",
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
