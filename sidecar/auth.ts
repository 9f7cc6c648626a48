// The bearer token check. Loopback is open to every local process, so each request must prove it comes
// from the PocketBase that started this sidecar.
import { createHash, timingSafeEqual } from "node:crypto";

const digest = (text: string): Buffer => createHash("sha256").update(text).digest();

/**
 * Whether an Authorization header carries `Bearer <token>`. Comparing fixed-size digests in constant time
 * leaks neither the token's bytes nor its length through timing.
 */
export function bearerMatches(header: string | undefined, token: string): boolean {
  return timingSafeEqual(digest(header ?? ""), digest(`Bearer ${token}`));
}
