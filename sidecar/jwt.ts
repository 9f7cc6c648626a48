// NATS JWT v2 encoding, byte for byte as github.com/nats-io/jwt/v2 does it (ClaimsData.doEncode):
// header {"typ":"JWT","alg":"ed25519-nkey"}; the standard claims first in Go's struct order; jti = unpadded
// base32 of SHA-512/256 over the standard claims alone with jti empty; Go's JSON escaping; base64url
// without padding; an ed25519 signature over "header.payload" by the issuer's nkey.
import { createHash } from "node:crypto";
import { ed25519Sign, ed25519SignerPublic } from "./ed25519";
import { HttpError } from "./errors";
import { base32Encode, decodeSeed, encodePublic } from "./nkeys";

const HEADER = { typ: "JWT", alg: "ed25519-nkey" };

// jwt.ClaimsData, in field order: these are the claims jti hashes, and the order Go marshals them in.
const STANDARD = ["aud", "exp", "jti", "iat", "iss", "name", "nbf", "sub"] as const;
const STANDARD_NAMES = new Set<string>(STANDARD);
const STRING_CLAIMS = new Set(["aud", "name", "sub"]);
const INTEGER_CLAIMS = new Set(["exp", "iat", "nbf"]);

export type Claims = Record<string, unknown>;

/**
 * Go's encoding/json escapes <, >, &, U+2028 and U+2029 where JSON.stringify does not; matching it keeps
 * the jti hash and the payload identical to what the Go library (and `nsc`) would produce.
 */
export function goJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

const base64url = (data: string | Uint8Array): string => Buffer.from(data).toString("base64url");

function checkClaims(claims: Claims): void {
  if (typeof claims.sub !== "string" || claims.sub === "") throw new HttpError(400, "claims.sub must be a non-empty string");
  for (const name of STRING_CLAIMS) {
    if (name in claims && typeof claims[name] !== "string") throw new HttpError(400, `claims.${name} must be a string`);
  }
  for (const name of INTEGER_CLAIMS) {
    const value = claims[name];
    if (name in claims && !(Number.isSafeInteger(value) && (value as number) > 0)) {
      throw new HttpError(400, `claims.${name} must be a positive integer (seconds)`);
    }
  }
  if ("nats" in claims && (typeof claims.nats !== "object" || claims.nats === null || Array.isArray(claims.nats))) {
    throw new HttpError(400, "claims.nats must be an object");
  }
}

/** Go's omitempty: a zero value is left out. */
const present = (value: unknown): boolean => value !== undefined && value !== "" && value !== 0;

/**
 * Signs `claims` with the issuer nkey `seed`. iss and jti are always set here; iat is kept when given
 * (the bus must issue a credential strictly after a revocation second), else it is `nowSeconds`.
 * nats.version defaults to 2, as the Go library's updateVersion sets it.
 */
export function encodeJwt(seed: string, claims: Claims, nowSeconds: number): string {
  checkClaims(claims);
  const issuer = decodeSeed(seed);
  const filled: Claims = { ...claims, iss: encodePublic(issuer.role, ed25519SignerPublic(issuer.seed)), iat: claims.iat ?? nowSeconds };
  const standardClaims = (jti: string): Claims => {
    const out: Claims = {};
    for (const name of STANDARD) {
      const value = name === "jti" ? jti : filled[name];
      if (present(value)) out[name] = value;
    }
    return out;
  };
  const jti = base32Encode(createHash("sha512-256").update(goJson(standardClaims(""))).digest());

  const payload = standardClaims(jti);
  for (const [name, value] of Object.entries(claims)) if (!STANDARD_NAMES.has(name)) payload[name] = value;
  if (payload.nats) payload.nats = { ...(payload.nats as Claims), version: (payload.nats as Claims).version ?? 2 };

  const signed = `${base64url(goJson(HEADER))}.${base64url(goJson(payload))}`;
  return `${signed}.${base64url(ed25519Sign(issuer.seed, Buffer.from(signed)))}`;
}
