import { describe, expect, it } from "vitest";
import { DEFERRED_FROM_BYTES, predictedClaimLength, signedAfterWrite } from "./deferred-signing";
import { withRevocation } from "./revocation-text";

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
/** A user-key-shaped name for each i: its base-32 digits, padded. */
const key = (i: number) => `U${Array.from(i.toString(32), (d) => BASE32[parseInt(d, 32)]).join("").padStart(55, "A")}`;
const list = (count: number) => JSON.stringify(Object.fromEntries(Array.from({ length: count }, (_, i) => [key(i), 1764000000 + i])));
// The claim's payload segment as the signer writes it: the list is carried as its compact text.
const claim = (text: string) => `h.${Buffer.from(`{"jti":"J","iat":1764000000,"nats":{"revocations":${text}}}`).toString("base64url")}.s`;

describe("which revocations are signed after their write", () => {
  it("those on a claim of 64 KiB or more", () => {
    expect(signedAfterWrite(DEFERRED_FROM_BYTES - 1)).toBe(false);
    expect(signedAfterWrite(DEFERRED_FROM_BYTES)).toBe(true);
  });
});

describe("the size a claim will have once its pending entries are signed", () => {
  it("bounds the signed length from above, within a few bytes", () => {
    for (const [count, added] of [[700, 1], [700, 5], [5000, 1], [5000, 40], [1, 1]]) {
      let text = list(count);
      let pending = 0;
      for (let i = 0; i < added; i++) {
        text = withRevocation(text, key(100_000 + i), 1764000999) as string;
        // What ENTRY_BYTES_SQL counts: the key, the cutoff's digits, two quotes, a colon and a comma.
        pending += key(100_000 + i).length + "1764000999".length + 4;
      }
      const predicted = predictedClaimLength(claim(list(count)).length, pending);
      expect(predicted).toBeGreaterThanOrEqual(claim(text).length);
      expect(predicted - claim(text).length).toBeLessThanOrEqual(4);
    }
  });
});
