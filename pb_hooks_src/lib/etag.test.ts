import { describe, expect, it } from "vitest";
import { entityTag, noneMatchHits } from "./etag";

describe("If-None-Match", () => {
  const tag = entityTag("abc123");
  it("quotes the digest", () => expect(tag).toBe('"abc123"'));
  it("matches the same tag, weak or strong, alone or in a list, and *", () => {
    expect(noneMatchHits('"abc123"', tag)).toBe(true);
    expect(noneMatchHits('W/"abc123"', tag)).toBe(true);
    expect(noneMatchHits('"zzz", "abc123"', tag)).toBe(true);
    expect(noneMatchHits("*", tag)).toBe(true);
  });
  it("does not match another tag, an unquoted digest, a blank or absent header", () => {
    expect(noneMatchHits('"abc124"', tag)).toBe(false);
    expect(noneMatchHits("abc123", tag)).toBe(false);
    expect(noneMatchHits("", tag)).toBe(false);
    expect(noneMatchHits(" , ", tag)).toBe(false);
    expect(noneMatchHits(undefined, tag)).toBe(false);
  });
});
