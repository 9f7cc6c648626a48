import { createPublicKey, verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ed25519Public, ed25519Sign, ed25519SignerPublic, newSeed, x25519Public } from "./ed25519";

const SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");
const verifies = (publicKey: Buffer, message: Buffer, signature: Buffer) =>
  verify(null, message, createPublicKey({ key: Buffer.concat([SPKI_PREFIX, publicKey]), format: "der", type: "spki" }), signature);

describe("ed25519 with node:crypto", () => {
  it("signs with the right key across more signers than the cache keeps", () => {
    const signers = Array.from({ length: 70 }, () => {
      const seed = newSeed();
      return { seed, publicKey: ed25519Public(seed) };
    });
    const message = Buffer.from("claims");
    for (const order of [signers, [...signers].reverse()]) {
      for (const { seed, publicKey } of order) {
        expect(ed25519SignerPublic(seed)).toEqual(publicKey);
        expect(verifies(publicKey, message, ed25519Sign(seed, message))).toBe(true);
      }
    }
  });

  it("derives 32-byte public keys, distinct per curve", () => {
    const seed = newSeed();
    expect(ed25519Public(seed)).toHaveLength(32);
    expect(x25519Public(seed)).toHaveLength(32);
    expect(x25519Public(seed)).not.toEqual(ed25519Public(seed));
  });
});
