// Curve operations on raw 32-byte keys with node:crypto (OpenSSL), ~100x faster than pure JS.
//
// New keys are 32 random bytes imported as PKCS#8, never generateKeyPairSync + export: on Node 20.20
// (OpenSSL 3.0) exporting a generated Ed25519 key as JWK deadlocks the process when a garbage collection
// runs inside the export (the collected key-generation job locks the key the export holds; seen here
// after a few thousand keys). A PKCS#8 import costs ~0.5 ms, so the keys that sign again and again
// (operator, account and CA keys) are kept imported in a small cache.
import { createHash, createPrivateKey, createPublicKey, randomBytes, sign, type KeyObject } from "node:crypto";

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

interface SigningKey {
  key: KeyObject;
  publicKey: Buffer;
}

const SIGNING_KEYS_KEPT = 64;
// Insertion order is recency order: a hit is re-inserted, the oldest entry is evicted first.
const signingKeys = new Map<string, SigningKey>();

/** The imported ed25519 key of `seed` and its public key; keyed by a digest, not by the seed itself. */
function signingKey(seed: Uint8Array): SigningKey {
  const id = createHash("sha256").update(seed).digest("base64");
  let entry = signingKeys.get(id);
  if (entry) signingKeys.delete(id);
  else {
    const key = privateKey("ed25519", seed);
    entry = { key, publicKey: rawPublic(key) };
    if (signingKeys.size >= SIGNING_KEYS_KEPT) signingKeys.delete(signingKeys.keys().next().value as string);
  }
  signingKeys.set(id, entry);
  return entry;
}

export const newSeed = (): Buffer => randomBytes(32);

/** The public key of a fresh seed: imported once, not cached (it is not a signing key yet). */
export const ed25519Public = (seed: Uint8Array): Buffer => rawPublic(privateKey("ed25519", seed));

/** The public key of a key that signs (an issuer): cached with its imported private key. */
export const ed25519SignerPublic = (seed: Uint8Array): Buffer => signingKey(seed).publicKey;

export const ed25519Sign = (seed: Uint8Array, message: Uint8Array): Buffer => sign(null, message, signingKey(seed).key);

export const x25519Public = (privateScalar: Uint8Array): Buffer => rawPublic(privateKey("x25519", privateScalar));
