import { describe, expect, it } from "vitest";
import { MAX_ACCOUNT_JWT_BYTES } from "../../../common/bus/account-claim";
import { CA_CERT_WARNING_MS, HOST_CERT_WARNING_MS, certificateStanding, claimSize, credentialStanding } from "./expiry";

const NOW = Date.parse("2026-11-29T12:00:00Z");
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().replace("T", " ");

describe("expiry windows", () => {
  it("a host certificate warns within 30 days, the CA within 90 (spec 4.3)", () => {
    expect(certificateStanding(iso(NOW + 29 * DAY), HOST_CERT_WARNING_MS, NOW)).toBe("expiring");
    expect(certificateStanding(iso(NOW + 31 * DAY), HOST_CERT_WARNING_MS, NOW)).toBe("ok");
    expect(certificateStanding(iso(NOW + 31 * DAY), CA_CERT_WARNING_MS, NOW)).toBe("expiring");
    expect(certificateStanding(iso(NOW - 1), HOST_CERT_WARNING_MS, NOW)).toBe("expired");
    expect(certificateStanding("", HOST_CERT_WARNING_MS, NOW)).toBe("unknown");
  });

  it("a bus credential warns once its renewal is overdue: less than 40 % of its lifetime left", () => {
    const issuedAt = NOW / 1000 - 18 * 86_400;
    const window = { issuedAt, expires: issuedAt + 30 * 86_400 };
    // 12 days of 30 left: 40 %, not less.
    expect(credentialStanding(window, window.expires, NOW)).toBe("ok");
    expect(credentialStanding(window, window.expires, NOW + 1000)).toBe("expiring");
    expect(credentialStanding(window, window.expires, window.expires * 1000)).toBe("expired");
    // Minted before credentials expired: never expires.
    expect(credentialStanding(undefined, 0, NOW)).toBe("ok");
    expect(credentialStanding(undefined, NOW / 1000 + 60, NOW)).toBe("unknown");
  });

  it("the account claim against its ceiling: large past half", () => {
    expect(claimSize("x".repeat(1000))).toMatchObject({ bytes: 1000, ceiling: MAX_ACCOUNT_JWT_BYTES, large: false });
    expect(claimSize("x".repeat(MAX_ACCOUNT_JWT_BYTES / 2 + 1)).large).toBe(true);
  });
});
