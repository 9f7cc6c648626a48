import { createHash, generateKeyPairSync, sign } from "node:crypto";
import { describe, expect, it } from "vitest";
import { caDetails, caName, caNotAfter } from "./ca-details";
import { certificateBytes, decodeCertificate, encodeDetails, fingerprint } from "./cert";

const sha256hex = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");

describe("overlay CA details", () => {
  it("names the CA after the organization code", () => {
    expect(caName("acme")).toBe("acme overlay CA");
  });

  it("adds calendar years in UTC", () => {
    const now = new Date("2026-11-21T23:43:19.750Z");
    expect(caNotAfter(now, 10)).toBe(Date.parse("2036-11-21T23:43:19Z") / 1000);
    expect(caNotAfter(now, 2)).toBe(Date.parse("2028-11-21T23:43:19Z") / 1000);
    expect(caNotAfter(new Date("2028-02-29T00:00:00Z"), 1)).toBe(Date.parse("2029-03-01T00:00:00Z") / 1000);
  });

  it("refuses a validity below one whole year", () => {
    expect(() => caNotAfter(new Date(), 0)).toThrow(/at least 1, got 0/);
    expect(() => caNotAfter(new Date(), 1.5)).toThrow(/got 1.5/);
  });

  it("describes a self-signed CA that encodes, signs and reads back", () => {
    const now = new Date("2026-01-01T00:00:00Z");
    const { publicKey, privateKey } = generateKeyPairSync("ed25519");
    const raw = new Uint8Array(publicKey.export({ format: "der", type: "spki" }).subarray(12));
    const details = caDetails("acme", now, 10, raw);
    expect(details).toMatchObject({ name: "acme overlay CA", isCA: true, issuer: "", networks: [], groups: [], notBefore: 1767225600 });
    const bytes = certificateBytes(details, new Uint8Array(sign(null, encodeDetails(details), privateKey)));
    const read = decodeCertificate(bytes);
    expect(read.details.isCA).toBe(true);
    expect(read.details.notAfter).toBe(Date.parse("2036-01-01T00:00:00Z") / 1000);
    expect(fingerprint(bytes, sha256hex)).toMatch(/^[0-9a-f]{64}$/);
  });
});
