// NATS creds files for the connections of nats.ts. The server's nonce is signed with OpenSSL (ed25519.ts),
// not with the client library's credsAuthenticator: that one signs in pure JavaScript (tweetnacl), ~7 ms
// a signature here with V8's optimizing compiler and ~110 ms without it (the sidecar runs --lite-mode),
// paid on every connection the sidecar opens, first of all at start (docs/performance.md).
import type { Authenticator } from "@nats-io/transport-node";
import { ed25519SignerPublic, ed25519Sign } from "./ed25519";
import { HttpError } from "./errors";
import { decodeSeed, encodePublic } from "./nkeys";

/** A creds file's two parts: the text between its first two pairs of dashed delimiter lines. */
export interface Creds {
  jwt: string;
  seed: Uint8Array;
}

const DELIMITED = /^\s*-{3,}[^\n]*-{3,}\s*\n([^\n]+)\n\s*-{3,}[^\n]*-{3,}\s*$/gm;

/** Reads a creds file's text; the error never repeats it. */
export function parseCreds(text: string): Creds {
  const blocks = [...text.matchAll(DELIMITED)].map((m) => m[1].trim());
  if (blocks.length < 2) throw new HttpError(400, "creds is not a NATS creds file (a user JWT and its nkey seed)");
  const { role, seed } = decodeSeed(blocks[1]);
  if (role !== "user") throw new HttpError(400, "creds holds the seed of an nkey that is not a user's");
  return { jwt: blocks[0], seed };
}

/** Answers the server's challenge: the user JWT, its public nkey and the nonce's signature. */
export function credsSigner(creds: Creds): Authenticator {
  const nkey = encodePublic("user", ed25519SignerPublic(creds.seed));
  return (nonce) => ({
    jwt: creds.jwt,
    nkey,
    sig: nonce ? ed25519Sign(creds.seed, new TextEncoder().encode(nonce)).toString("base64url") : "",
  });
}
