// Who may scrape GET /metrics (spec 4.3): open when metrics.token is empty; otherwise
// `Authorization: Bearer <token>` or `Authorization: Basic base64(<any username>:<token>)`. Pure: the
// constant-time comparison is passed in ($security.equal in goja).
import { base64Decode } from "../encoding/base64";
import { utf8Decode } from "../encoding/utf8";

export const UNAUTHORIZED_STATUS = 401;
export const CHALLENGE = 'Basic realm="metrics"';
export const UNAUTHORIZED_BODY = "metrics token required\n";

/** The token an Authorization header presents (Bearer, or Basic's password with the username ignored). */
export function presentedToken(header: string): string | undefined {
  const match = /^\s*(\S+)\s+(\S+)\s*$/.exec(header);
  if (!match) return undefined;
  const scheme = match[1].toLowerCase();
  if (scheme === "bearer") return match[2];
  if (scheme !== "basic") return undefined;
  let decoded: string;
  try {
    decoded = utf8Decode(base64Decode(match[2]));
  } catch {
    return undefined;
  }
  // RFC 7617: the user-id cannot contain a colon, the password can; so a token may hold colons.
  const colon = decoded.indexOf(":");
  return colon < 0 ? undefined : decoded.slice(colon + 1);
}

/** Whether the request may scrape; `equal` must compare in constant time. */
export function scrapeAllowed(configuredToken: string, authorizationHeader: string, equal: (a: string, b: string) => boolean): boolean {
  if (configuredToken === "") return true;
  const presented = presentedToken(authorizationHeader);
  return presented !== undefined && equal(presented, configuredToken);
}
