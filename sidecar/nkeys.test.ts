import { createAccount, createCluster, createCurve, createOperator, createServer, createUser, fromPublic, fromSeed, type KeyPair } from "@nats-io/nkeys";
import { describe, expect, it } from "vitest";
import { ed25519Public, newSeed } from "./ed25519";
import { HttpError } from "./errors";
import { base32Decode, base32Encode, crc16, decodeSeed, encodePublic, encodeSeed, NKEY_ROLES } from "./nkeys";
import type { NkeyType } from "../common/sidecar/protocol";

const reference: Record<NkeyType, () => KeyPair> = {
  operator: createOperator,
  account: createAccount,
  user: createUser,
  cluster: createCluster,
  server: createServer,
};
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("nkeys codec", () => {
  it("base32 round-trips every length and matches RFC 4648 vectors", () => {
    expect(base32Encode(Buffer.from("foobar"))).toBe("MZXW6YTBOI");
    expect(base32Encode(Buffer.from("f"))).toBe("MY");
    for (let n = 0; n < 40; n++) {
      const bytes = newSeed().subarray(0, n % 32);
      expect(base32Decode(base32Encode(bytes))).toEqual(Uint8Array.from(bytes));
    }
    expect(base32Decode("ab1")).toBeUndefined();
  });

  it("crc16 is CRC-16/XMODEM", () => {
    expect(crc16(Buffer.from("123456789"))).toBe(0x31c3);
  });

  for (const role of NKEY_ROLES) {
    it(`encodes ${role} seeds and public keys as @nats-io/nkeys does`, () => {
      const seed = newSeed();
      const encoded = encodeSeed(role, seed);
      const kp = fromSeed(new TextEncoder().encode(encoded));
      expect(kp.getPublicKey()).toBe(encodePublic(role, ed25519Public(seed)));
      expect(fromPublic(kp.getPublicKey()).getPublicKey()).toBe(kp.getPublicKey());

      const theirs = reference[role]();
      const decoded = decodeSeed(text(theirs.getSeed()));
      expect(decoded.role).toBe(role);
      expect(encodeSeed(role, decoded.seed)).toBe(text(theirs.getSeed()));
      expect(encodePublic(role, ed25519Public(decoded.seed))).toBe(theirs.getPublicKey());
    });
  }

  it("refuses a corrupted seed, a public key and a curve seed without quoting them", () => {
    const seed = text(createUser().getSeed());
    const corrupted = seed.slice(0, 10) + (seed[10] === "A" ? "B" : "A") + seed.slice(11);
    const curveSeed = text(createCurve().getSeed());
    for (const bad of [corrupted, createUser().getPublicKey(), curveSeed, "", "S"]) {
      let error: unknown;
      try {
        decodeSeed(bad);
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).status).toBe(400);
      if (bad) expect((error as HttpError).message).not.toContain(bad);
    }
  });
});
