// (a) tweetnacl: pure JS on 32-bit limbs in Float64Arrays. Every call takes caller-supplied seeds, so
// nacl.setPRNG (needed only by keyPair()/randomBytes(), which find no crypto.getRandomValues in goja) is unused.
import nacl from "tweetnacl";
import type { Primitives } from "./suite";

export const primitives: Primitives = {
  edKeyPair: (seed) => nacl.sign.keyPair.fromSeed(seed),
  edSign: (msg, secretKey) => nacl.sign.detached(msg, secretKey),
  x25519KeyPair: (seed) => nacl.box.keyPair.fromSecretKey(seed),
};
