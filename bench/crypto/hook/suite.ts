// What every crypto path offers the bench: the three primitives a Thing creation needs.
// Secret keys are opaque per path (tweetnacl keeps seed||public key, noble and node:crypto the 32-byte seed),
// so a signing key must come from the same path's edKeyPair.
export interface KeyPair {
  publicKey: Uint8Array;
  secretKey: Uint8Array;
}

export type Op =
  | { op: "edKeyPair"; seed: Uint8Array }
  | { op: "edSign"; msg: Uint8Array; secretKey: Uint8Array }
  | { op: "x25519KeyPair"; seed: Uint8Array };

export type OpName = Op["op"];

export interface Result {
  publicKey?: Uint8Array;
  secretKey?: Uint8Array;
  signature?: Uint8Array;
}

/** In-process libraries implement the primitives directly. */
export interface Primitives {
  edKeyPair(seed: Uint8Array): KeyPair;
  edSign(msg: Uint8Array, secretKey: Uint8Array): Uint8Array;
  x25519KeyPair(seed: Uint8Array): KeyPair;
}

/** A path runs a batch of ops; native paths pay their transport once per batch, in-process ones never. */
export type Suite = (ops: Op[]) => Result[];
