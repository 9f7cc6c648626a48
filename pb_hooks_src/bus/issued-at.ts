// The payload of a signed token, and its issue second, read without verifying it. PocketBase's
// $security.parseUnverifiedJWT also validates `iat` and refuses a token issued ahead of the clock, which
// is exactly the token the callers need to read: every re-sign and every credential minted after a
// revocation is issued in a second that may still lie ahead (docs/decisions/250-issue-times-run-ahead.md,
// 063-suspension-claim-admits-nothing.md and 228-revocation-covers-held-credential.md).
import { base64Decode } from "../../common/encoding/base64";
import { utf8Decode } from "../../common/encoding/utf8";

/** The claims of a JWT as plain JSON, or null when it is not a readable token. */
export function jwtPayload(jwt: string): Record<string, unknown> | null {
  const payload = jwt.split(".")[1];
  if (!payload) return null;
  const standard = payload.replace(/-/g, "+").replace(/_/g, "/");
  try {
    const claims: unknown = JSON.parse(utf8Decode(base64Decode(standard + "===".slice((standard.length + 3) % 4))));
    return typeof claims === "object" && claims !== null && !Array.isArray(claims) ? (claims as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The standard claims that may precede `iat` at the head of a NATS JWT's payload (sidecar/jwt.ts writes
 * them first, in Go's order aud, exp, jti, iat), then `iat` itself: matched from the payload's first
 * character, so it is the top-level claim and never a value inside another one.
 */
const LEADING_IAT = /^\{(?:"(?:aud|exp|jti)":(?:"[^"\\]*"|\d+),)*"iat":(\d+)[,}]/;
/** Base64 characters of the payload's head decoded to find `iat`: 192 bytes, past aud-less standard claims. */
const HEAD_CHARS = 256;

/**
 * `iat` of a JWT (0 when absent or unreadable). Only the payload's head is decoded when `iat` is there:
 * an account claim grows with its revocation list (~93 bytes each), and decoding all of it in goja cost
 * ~0.5 ms per entry, twice per revocation.
 */
export function jwtIssuedAt(jwt: string): number {
  const start = jwt.indexOf(".") + 1;
  const head = jwt.slice(start, start + HEAD_CHARS).split(".")[0].replace(/-/g, "+").replace(/_/g, "/");
  try {
    const bytes = base64Decode(head.slice(0, head.length - (head.length % 4)));
    const leading = LEADING_IAT.exec(String.fromCharCode(...bytes));
    if (leading) return Number(leading[1]);
  } catch {
    // not base64: the whole payload is tried below, and found unreadable there
  }
  const iat = jwtPayload(jwt)?.iat;
  return typeof iat === "number" ? iat : 0;
}
