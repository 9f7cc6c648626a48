import { describe, expect, it } from "vitest";
import { type CertificateKindSummary, type CertificateScan } from "../certificates";
import { expiryOutcome } from "./overlay-cert-expiry";

const SOON = Date.parse("2026-06-10T00:00:00Z");
const NONE: CertificateKindSummary = { inService: 0, expired: 0, expiring: 0, soonestMs: null };
const FINE: CertificateKindSummary = { inService: 4, expired: 0, expiring: 0, soonestMs: Date.parse("2027-06-01T00:00:00Z") };

function scan(kinds: Partial<CertificateScan>): CertificateScan {
  return { overlay_ca: NONE, overlay_host: NONE, ...kinds };
}

describe("expiryOutcome", () => {
  it("is skipped, with a fix, when no certificate is in service", () => {
    const outcome = expiryOutcome(scan({}));
    expect(outcome.state).toBe("skipped");
    expect(outcome.detail).toBe("no overlay certificates issued");
    expect(outcome.state !== "ok" && outcome.fix).toBeTruthy();
  });

  it("is ok when certificates are in service and none is near expiry", () => {
    expect(expiryOutcome(scan({ overlay_ca: { ...FINE, inService: 1 }, overlay_host: FINE }))).toEqual({ state: "ok" });
  });

  it("is ok with only a CA in service", () => {
    expect(expiryOutcome(scan({ overlay_ca: { ...FINE, inService: 1 } }))).toEqual({ state: "ok" });
  });

  it("warns when a host certificate expires within 30 days", () => {
    const outcome = expiryOutcome(scan({ overlay_host: { inService: 3, expired: 0, expiring: 1, soonestMs: SOON } }));
    expect(outcome.state).toBe("warn");
    expect(outcome.detail).toBe("0 host certificate(s) expired and 1 expiring within 30 days (soonest 2026-06-10T00:00:00.000Z)");
  });

  it("warns when a CA certificate expires within 90 days", () => {
    const outcome = expiryOutcome(scan({ overlay_ca: { inService: 1, expired: 0, expiring: 1, soonestMs: SOON } }));
    expect(outcome.state).toBe("warn");
    expect(outcome.detail).toBe("0 CA certificate(s) expired and 1 expiring within 90 days (soonest 2026-06-10T00:00:00.000Z)");
  });

  it("warns, never fails, when certificates have expired", () => {
    const outcome = expiryOutcome(scan({ overlay_host: { inService: 2, expired: 2, expiring: 0, soonestMs: SOON } }));
    expect(outcome.state).toBe("warn");
    expect(outcome.detail).toContain("2 host certificate(s) expired and 0 expiring");
  });

  it("names both kinds, hosts first, when both are near expiry", () => {
    const outcome = expiryOutcome(
      scan({ overlay_ca: { inService: 1, expired: 0, expiring: 1, soonestMs: SOON }, overlay_host: { inService: 5, expired: 1, expiring: 2, soonestMs: SOON } }),
    );
    expect(outcome.detail).toBe(
      "1 host certificate(s) expired and 2 expiring within 30 days (soonest 2026-06-10T00:00:00.000Z); 0 CA certificate(s) expired and 1 expiring within 90 days (soonest 2026-06-10T00:00:00.000Z)",
    );
  });

  it("gives a fix saying how to renew a host and naming the CA rotation on a warning", () => {
    const outcome = expiryOutcome(scan({ overlay_host: { inService: 1, expired: 1, expiring: 0, soonestMs: SOON } }));
    expect(outcome.state).toBe("warn");
    const fix = outcome.state === "ok" ? "" : outcome.fix;
    expect(fix).toContain("empty cert");
    expect(fix).toContain("/api/org/overlay-ca/rotate");
  });

  it("puts only counts, windows and a timestamp in the detail: no tenant data", () => {
    const outcome = expiryOutcome(scan({ overlay_host: { inService: 9, expired: 2, expiring: 3, soonestMs: SOON } }));
    const withoutTimestamp = (outcome.detail ?? "").replace("2026-06-10T00:00:00.000Z", "<time>");
    expect(withoutTimestamp).toMatch(/^\d+ host certificate\(s\) expired and \d+ expiring within 30 days \(soonest <time>\)$/);
  });
});
