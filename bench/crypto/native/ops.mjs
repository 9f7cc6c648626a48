// node:crypto implementations of the bench ops, shared by both native signers and by run.mjs's verifier.
// Wire format: {ops: [{op, seed? | msg?, secretKey?}]} → {results: [{publicKey?, secretKey?, signature?}]},
// bytes as hex. Secret keys are 32-byte seeds.
import { createPrivateKey, createPublicKey, sign } from "node:crypto";

// node:crypto imports a raw 32-byte private key only wrapped in PKCS#8 DER; these are its fixed prefixes (RFC 8410).
const PKCS8_PREFIX = {
  ed25519: Buffer.from("302e020100300506032b657004220420", "hex"),
  x25519: Buffer.from("302e020100300506032b656e04220420", "hex"),
};

export const privateKey = (curve, seed) =>
  createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX[curve], seed]), format: "der", type: "pkcs8" });

/** The raw 32-byte public key: the tail of the SPKI DER encoding. */
export const rawPublicKey = (key) => createPublicKey(key).export({ format: "der", type: "spki" }).subarray(-32);

const bytes = (hex) => Buffer.from(hex, "hex");

function runOp({ op, seed, msg, secretKey }) {
  switch (op) {
    case "edKeyPair":
      return { publicKey: rawPublicKey(privateKey("ed25519", bytes(seed))).toString("hex"), secretKey: seed };
    case "edSign":
      return { signature: sign(null, bytes(msg), privateKey("ed25519", bytes(secretKey))).toString("hex") };
    case "x25519KeyPair":
      return { publicKey: rawPublicKey(privateKey("x25519", bytes(seed))).toString("hex"), secretKey: seed };
    default:
      throw new Error(`unknown op ${op}`);
  }
}

export const runOps = (requestText) => JSON.stringify({ results: JSON.parse(requestText).ops.map(runOp) });
