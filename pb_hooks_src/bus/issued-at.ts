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

/** `iat` of a JWT (0 when absent or unreadable). */
export function jwtIssuedAt(jwt: string): number {
  const iat = jwtPayload(jwt)?.iat;
  return typeof iat === "number" ? iat : 0;
}
