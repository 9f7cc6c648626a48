// (a) tweetnacl: pure JS, field elements as 16 limbs of 16 bits in Float64Arrays.
// Every call takes caller-supplied seeds, so nacl.setPRNG (needed only by keyPair() and randomBytes(), which
// find no crypto.getRandomValues in goja) is not used.
import nacl from "tweetnacl";
import type { Primitives } from "./suite";

export const primitives: Primitives = {
  edKeyPair: (seed) => nacl.sign.keyPair.fromSeed(seed),
  edSign: (msg, secretKey) => nacl.sign.detached(msg, secretKey),
  x25519KeyPair: (seed) => nacl.box.keyPair.fromSecretKey(seed),
};
