// The issue second of a signed token, read from its payload without verifying it. PocketBase's
// $security.parseUnverifiedJWT also validates `iat` and refuses a token issued ahead of the clock, which
// is exactly the token the callers need to read: every re-sign and every credential minted after a
// revocation is issued in a second that may still lie ahead (docs/decisions.md).
import { base64Decode } from "../overlay/cert/base64";

/** `iat` of a JWT (0 when absent or unreadable). */
export function jwtIssuedAt(jwt: string): number {
  const payload = jwt.split(".")[1];
  if (!payload) return 0;
  const standard = payload.replace(/-/g, "+").replace(/_/g, "/");
  let bytes: Uint8Array;
  try {
    bytes = base64Decode(standard + "===".slice((standard.length + 3) % 4));
  } catch {
    return 0;
  }
  // Only the digits of `iat` are read, so a byte-wise string is enough (non-ASCII names stay mangled).
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  const match = /"iat"\s*:\s*(\d+)/.exec(text);
  return match ? Number(match[1]) : 0;
}
