import { describe, expect, it } from "vitest";
import { credentialWindow, renewalDelayMs } from "./renewal";

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const creds = (claims: Record<string, unknown>) =>
  `-----BEGIN NATS USER JWT-----\n${base64url({ typ: "JWT" })}.${base64url(claims)}.sig\n------END NATS USER JWT------\n`;

describe("the console's credential renewal", () => {
  it("reads the JWT's issue and expiry seconds", () => {
    expect(credentialWindow(creds({ iat: 1_000, exp: 2_000, sub: "U" }))).toEqual({ issuedAt: 1_000, expires: 2_000 });
  });

  it("reads the renewal 60 % into the lifetime, after the platform's renewal at half", () => {
    expect(renewalDelayMs(creds({ iat: 1_000, exp: 2_000 }), 1_000_000)).toBe(600_000);
  });

  it("retries soon, never at once, once that time has passed", () => {
    expect(renewalDelayMs(creds({ iat: 1_000, exp: 2_000 }), 1_900_000)).toBe(500);
  });

  it("has nothing to renew for a credential without an expiry, or one it cannot read", () => {
    expect(renewalDelayMs(creds({ iat: 1_000 }), 1_000_000)).toBeUndefined();
    expect(renewalDelayMs("not a creds file", 1_000_000)).toBeUndefined();
    expect(renewalDelayMs(creds({ iat: 2_000, exp: 1_000 }), 1_000_000)).toBeUndefined();
  });
});
