import { describe, expect, it } from "vitest";
import { DEFAULT_BRANDING, parseBranding } from "./branding";

describe("branding.json", () => {
  it("takes the operator's texts", () => {
    expect(parseBranding({ productName: "Acme Fleet", logo: "/branding/logo.svg" })).toEqual({ productName: "Acme Fleet", logo: "/branding/logo.svg" });
  });
  it("falls back field by field", () => {
    expect(parseBranding({ productName: "Acme Fleet" })).toEqual({ ...DEFAULT_BRANDING, productName: "Acme Fleet" });
    expect(parseBranding({ productName: 7, logo: "/x.svg" })).toEqual({ ...DEFAULT_BRANDING, logo: "/x.svg" });
    expect(parseBranding(null)).toEqual(DEFAULT_BRANDING);
  });
  it("refuses a logo from another origin or a script URL", () => {
    for (const logo of ["https://evil.example/l.svg", "//evil.example/l.svg", "javascript:alert(1)"]) {
      expect(parseBranding({ logo }).logo).toBe(DEFAULT_BRANDING.logo);
    }
  });
});
