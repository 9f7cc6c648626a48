import { describe, expect, it } from "vitest";
import { cutoffIn, withRevocation } from "./revocation-text";

const A = `U${"A".repeat(55)}`;
const B = `U${"B".repeat(55)}`;

describe("a revocation list as stored text", () => {
  it("reads one key's cutoff, and the wildcard's", () => {
    const text = JSON.stringify({ [A]: 100, "*": 50 });
    expect(cutoffIn(text, A)).toBe(100);
    expect(cutoffIn(text, "*")).toBe(50);
    expect(cutoffIn(text, B)).toBe(0);
    expect(cutoffIn("", A)).toBe(0);
    expect(cutoffIn(text, "not a key")).toBe(0);
  });

  it("appends a new key, to an empty list too, and stays the JSON it was", () => {
    expect(JSON.parse(withRevocation(JSON.stringify({ [A]: 100 }), B, 200) as string)).toEqual({ [A]: 100, [B]: 200 });
    expect(JSON.parse(withRevocation("{}", B, 200) as string)).toEqual({ [B]: 200 });
    expect(JSON.parse(withRevocation("", B, 200) as string)).toEqual({ [B]: 200 });
    expect(JSON.parse(withRevocation("null", B, 200) as string)).toEqual({ [B]: 200 });
  });

  it("raises a key's cutoff, never lowers it", () => {
    expect(JSON.parse(withRevocation(JSON.stringify({ [A]: 100, [B]: 5 }), A, 300) as string)).toEqual({ [A]: 300, [B]: 5 });
    expect(withRevocation(JSON.stringify({ [A]: 100 }), A, 100)).toBeUndefined();
    expect(withRevocation(JSON.stringify({ [A]: 100 }), A, 99)).toBeUndefined();
  });

  it("adds nothing the wildcard already refuses", () => {
    expect(withRevocation(JSON.stringify({ "*": 500 }), A, 400)).toBeUndefined();
    expect(JSON.parse(withRevocation(JSON.stringify({ "*": 500 }), A, 501) as string)).toEqual({ "*": 500, [A]: 501 });
  });

  it("refuses what is not a key or a cutoff", () => {
    expect(withRevocation("{}", 'U"evil', 1)).toBeUndefined();
    expect(withRevocation("{}", A, -1)).toBeUndefined();
    expect(withRevocation("{}", A, 1.5)).toBeUndefined();
  });

  it("reads and raises an entry stored with spaces around its colon, as an edit may have written it", () => {
    const spaced = `{ "${A}" : 100, "*":\t50 }`;
    expect(cutoffIn(spaced, A)).toBe(100);
    expect(cutoffIn(spaced, "*")).toBe(50);
    expect(JSON.parse(withRevocation(spaced, A, 300) as string)).toEqual({ [A]: 300, "*": 50 });
    expect(withRevocation(spaced, A, 100)).toBeUndefined();
  });
});
