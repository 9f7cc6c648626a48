import { describe, expect, it } from "vitest";
import { presentedToken, scrapeAllowed } from "./scrape-auth";

const basic = (userAndPassword: string) => `Basic ${Buffer.from(userAndPassword, "utf8").toString("base64")}`;
const equal = (a: string, b: string) => a === b;

describe("presentedToken", () => {
  it("reads a Bearer token, scheme case-insensitive", () => {
    expect(presentedToken("Bearer s3cret")).toBe("s3cret");
    expect(presentedToken("bearer s3cret")).toBe("s3cret");
  });

  it("reads Basic's password and ignores the username, which may be empty or non-ASCII", () => {
    expect(presentedToken(basic("prometheus:s3cret"))).toBe("s3cret");
    expect(presentedToken(basic(":s3cret"))).toBe("s3cret");
    expect(presentedToken(basic("jürgen:to:ken"))).toBe("to:ken");
  });

  it("presents nothing for other schemes and malformed headers", () => {
    expect(presentedToken("")).toBeUndefined();
    expect(presentedToken("s3cret")).toBeUndefined();
    expect(presentedToken("Token s3cret")).toBeUndefined();
    expect(presentedToken("Basic !!!!")).toBeUndefined();
    expect(presentedToken(basic("no-colon"))).toBeUndefined();
  });
});

describe("scrapeAllowed", () => {
  it("is open when no token is configured", () => {
    expect(scrapeAllowed("", "", equal)).toBe(true);
    expect(scrapeAllowed("", "Bearer anything", equal)).toBe(true);
  });

  it("requires the configured token otherwise", () => {
    expect(scrapeAllowed("s3cret", "Bearer s3cret", equal)).toBe(true);
    expect(scrapeAllowed("s3cret", basic("any:s3cret"), equal)).toBe(true);
    expect(scrapeAllowed("s3cret", "Bearer wrong", equal)).toBe(false);
    expect(scrapeAllowed("s3cret", basic("s3cret:wrong"), equal)).toBe(false);
    expect(scrapeAllowed("s3cret", "", equal)).toBe(false);
  });

  it("compares with the function it is given", () => {
    const calls: Array<[string, string]> = [];
    scrapeAllowed("s3cret", "Bearer x", (a, b) => (calls.push([a, b]), false));
    expect(calls).toEqual([["x", "s3cret"]]);
  });
});
