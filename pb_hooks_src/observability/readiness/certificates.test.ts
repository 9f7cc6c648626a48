import { describe, expect, it } from "vitest";
import { DAY_MS, WARNING_WINDOW_MS, summarizeCertificates } from "./certificates";

const NOW = Date.parse("2026-06-01T00:00:00Z");

describe("summarizeCertificates", () => {
  it("gives inService 0 and soonestMs null for a kind with no certificates", () => {
    expect(summarizeCertificates({ overlay_ca: [], overlay_host: [] }, NOW)).toEqual({
      overlay_ca: { inService: 0, expired: 0, expiring: 0, soonestMs: null },
      overlay_host: { inService: 0, expired: 0, expiring: 0, soonestMs: null },
    });
  });

  it("counts a certificate expiring exactly now as expired", () => {
    expect(summarizeCertificates({ overlay_ca: [], overlay_host: [NOW] }, NOW).overlay_host).toMatchObject({ expired: 1, expiring: 0 });
  });

  it("counts a certificate that expired in the past as expired", () => {
    expect(summarizeCertificates({ overlay_ca: [], overlay_host: [NOW - DAY_MS] }, NOW).overlay_host).toMatchObject({ expired: 1, expiring: 0 });
  });

  it("counts a certificate one millisecond from expiry as expiring", () => {
    expect(summarizeCertificates({ overlay_ca: [], overlay_host: [NOW + 1] }, NOW).overlay_host).toMatchObject({ expired: 0, expiring: 1 });
  });

  it("counts a host certificate exactly 30 days out as expiring", () => {
    expect(summarizeCertificates({ overlay_ca: [], overlay_host: [NOW + 30 * DAY_MS] }, NOW).overlay_host).toMatchObject({ expired: 0, expiring: 1 });
  });

  it("does not count a host certificate just beyond 30 days", () => {
    expect(summarizeCertificates({ overlay_ca: [], overlay_host: [NOW + 30 * DAY_MS + 1] }, NOW).overlay_host).toMatchObject({ inService: 1, expired: 0, expiring: 0 });
  });

  it("counts a CA certificate exactly 90 days out as expiring", () => {
    expect(summarizeCertificates({ overlay_ca: [NOW + 90 * DAY_MS], overlay_host: [] }, NOW).overlay_ca).toMatchObject({ expired: 0, expiring: 1 });
  });

  it("does not count a CA certificate just beyond 90 days", () => {
    expect(summarizeCertificates({ overlay_ca: [NOW + 90 * DAY_MS + 1], overlay_host: [] }, NOW).overlay_ca).toMatchObject({ inService: 1, expired: 0, expiring: 0 });
  });

  it("uses the CA window for CAs and the host window for hosts", () => {
    const in60Days = NOW + 60 * DAY_MS;
    const scan = summarizeCertificates({ overlay_ca: [in60Days], overlay_host: [in60Days] }, NOW);
    expect(scan.overlay_ca.expiring).toBe(1);
    expect(scan.overlay_host.expiring).toBe(0);
  });

  it("has windows of 30 days for hosts and 90 for CAs", () => {
    expect(WARNING_WINDOW_MS).toEqual({ overlay_host: 30 * DAY_MS, overlay_ca: 90 * DAY_MS });
  });

  it("reports the soonest expiry, whatever the order", () => {
    const times = [NOW + 200 * DAY_MS, NOW - 3 * DAY_MS, NOW + 5 * DAY_MS];
    expect(summarizeCertificates({ overlay_ca: [], overlay_host: times }, NOW).overlay_host.soonestMs).toBe(NOW - 3 * DAY_MS);
  });

  it("counts every certificate in service, expired or not", () => {
    const times = [NOW - DAY_MS, NOW + DAY_MS, NOW + 365 * DAY_MS];
    expect(summarizeCertificates({ overlay_ca: [], overlay_host: times }, NOW).overlay_host).toEqual({
      inService: 3,
      expired: 1,
      expiring: 1,
      soonestMs: NOW - DAY_MS,
    });
  });
});
