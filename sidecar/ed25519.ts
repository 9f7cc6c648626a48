// Curve operations on raw 32-byte keys with node:crypto (OpenSSL), which is ~100x faster than pure JS.
import { createPrivateKey, createPublicKey, randomBytes, sign, type KeyObject } from "node:crypto";

// node:crypto imports a raw private key only wrapped in PKCS#8 DER; these are the fixed prefixes (RFC 8410).
const PKCS8_PREFIX = {
  ed25519: Buffer.from("302e020100300506032b657004220420", "hex"),
  x25519: Buffer.from("302e020100300506032b656e04220420", "hex"),
};

type Curve = keyof typeof PKCS8_PREFIX;

const privateKey = (curve: Curve, seed: Uint8Array): KeyObject =>
  createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX[curve], seed]), format: "der", type: "pkcs8" });

/** The raw public key: the last 32 bytes of its SPKI DER encoding. */
const rawPublic = (key: KeyObject): Buffer => createPublicKey(key).export({ format: "der", type: "spki" }).subarray(-32);

export const newSeed = (): Buffer => randomBytes(32);

export const ed25519Public = (seed: Uint8Array): Buffer => rawPublic(privateKey("ed25519", seed));

export const ed25519Sign = (seed: Uint8Array, message: Uint8Array): Buffer => sign(null, message, privateKey("ed25519", seed));

export const x25519Public = (privateScalar: Uint8Array): Buffer => rawPublic(privateKey("x25519", privateScalar));
