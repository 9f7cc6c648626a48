// (b) @noble/curves: pure JS on BigInt, which goja implements with Go's math/big.
// noble's ed25519 secret key is the 32-byte seed; sign() re-derives the public key from it on every call.
import { ed25519, x25519 } from "@noble/curves/ed25519.js";
import { bytesToNumberLE } from "@noble/curves/utils.js";
import { sha512 } from "@noble/hashes/sha2.js";
import type { Primitives } from "./suite";

export const primitives: Primitives = {
  edKeyPair: (seed) => ({ publicKey: ed25519.getPublicKey(seed), secretKey: seed }),
  edSign: (msg, secretKey) => ed25519.sign(msg, secretKey),
  x25519KeyPair: (seed) => ({ publicKey: x25519.getPublicKey(seed), secretKey: seed }),
};

/** The two costly pieces of an ed25519 signature, timed apart to show where goja spends the time. */
export const parts = {
  sha512: (msg: Uint8Array) => sha512(msg),
  baseMultiply: (seed: Uint8Array) =>
    ed25519.Point.BASE.multiply(ed25519.Point.Fn.create(bytesToNumberLE(seed))).toBytes(),
};
