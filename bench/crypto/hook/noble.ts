// (b) @noble/curves: pure JS on BigInt, which goja implements with Go's math/big.
// noble's ed25519 secret key is the 32-byte seed; sign() re-derives the public key from it on every call.
import { ed25519, x25519 } from "@noble/curves/ed25519.js";
import type { Primitives } from "./suite";

export const primitives: Primitives = {
  edKeyPair: (seed) => ({ publicKey: ed25519.getPublicKey(seed), secretKey: seed }),
  edSign: (msg, secretKey) => ed25519.sign(msg, secretKey),
  x25519KeyPair: (seed) => ({ publicKey: x25519.getPublicKey(seed), secretKey: seed }),
};
