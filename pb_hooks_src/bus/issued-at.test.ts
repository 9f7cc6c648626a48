import { describe, expect, it } from "vitest";
import { jwtIssuedAt, jwtPayload } from "./issued-at";

const token = (claims: object) => `e30.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.sig`;

describe("jwtIssuedAt", () => {
  it("reads iat whatever the clock says, a future one included", () => {
    const future = Math.floor(Date.now() / 1000) + 3600;
    expect(jwtIssuedAt(token({ jti: "x", iat: future, name: "Ünïcode" }))).toBe(future);
    expect(jwtIssuedAt(token({ iat: 1795474378, sub: "U" }))).toBe(1795474378);
  });

  it("reads iat from the head of a long claim, and only a top-level one", () => {
    const revocations = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`U${String(i).padStart(55, "A")}`, 1795474000 + i]));
    expect(jwtIssuedAt(token({ jti: "J".repeat(52), iat: 1795474378, iss: "O", name: "big", sub: "A", nats: { revocations } }))).toBe(1795474378);
    expect(jwtIssuedAt(token({ exp: 1895474378, jti: "x", iat: 1795474379, sub: "U" }))).toBe(1795474379);
    // A name that spells a claim is a string's content, not the claim: the whole payload answers.
    expect(jwtIssuedAt(token({ name: '{"iat":1,', iat: 1795474380 }))).toBe(1795474380);
    expect(jwtIssuedAt(token({ nats: { iat: 5 }, iat: 1795474381 }))).toBe(1795474381);
  });

  it("is 0 for a token without iat, a missing token or an unreadable payload", () => {
    expect(jwtIssuedAt(token({ sub: "U" }))).toBe(0);
    expect(jwtIssuedAt("")).toBe(0);
    expect(jwtIssuedAt("a.@@@.c")).toBe(0);
  });
});

describe("jwtPayload", () => {
  it("reads the claims as JSON, non-ASCII names intact", () => {
    expect(jwtPayload(token({ name: "Ünïcode", nats: { limits: { conn: 0 } } }))).toEqual({ name: "Ünïcode", nats: { limits: { conn: 0 } } });
  });

  it("is null for anything that is not a token", () => {
    expect(jwtPayload("")).toBeNull();
    expect(jwtPayload("a.@@@.c")).toBeNull();
    expect(jwtPayload(`e30.${Buffer.from("[1]").toString("base64url")}.sig`)).toBeNull();
  });
});
