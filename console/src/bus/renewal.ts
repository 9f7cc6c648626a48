// When the console takes its renewed bus credential (issue 36 item 1). The platform re-mints a credential
// with half its lifetime left; the console reads its own again a little after that (60 % into the
// lifetime) and reconnects onto it before the old one expires, when the hub would close the connection.
// Pure: the creds file's JWT is read, never verified (the hub does that).

/** Issue and expiry seconds of the creds file's JWT; undefined when it has no expiry or cannot be read. */
export function credentialWindow(creds: string): { issuedAt: number; expires: number } | undefined {
  return jwtWindow(/-----BEGIN NATS USER JWT-----\s*([A-Za-z0-9_.-]+)/.exec(creds)?.[1] ?? "");
}

/** Issue and expiry seconds of a bare JWT (bus_users.jwt); undefined when it has no expiry or cannot be read. */
export function jwtWindow(jwt: string): { issuedAt: number; expires: number } | undefined {
  const payload = jwt.split(".")[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/"))) as { iat?: unknown; exp?: unknown };
    if (typeof claims.iat !== "number" || typeof claims.exp !== "number" || claims.exp <= claims.iat) return undefined;
    return { issuedAt: claims.iat, expires: claims.exp };
  } catch {
    return undefined;
  }
}

/** Share of the lifetime after which the renewed credential is read: past the platform's half. */
const READ_AT = 0.6;
/** The soonest retry, while the renewal is not there yet. */
const MIN_DELAY_MS = 500;

/** Milliseconds until the renewed credential should be read (a retry once that time has passed); undefined: never expires. */
export function renewalDelayMs(creds: string, nowMs: number): number | undefined {
  const window = credentialWindow(creds);
  if (!window) return undefined;
  const readAtMs = (window.issuedAt + READ_AT * (window.expires - window.issuedAt)) * 1000;
  return Math.max(MIN_DELAY_MS, Math.round(readAtMs - nowMs));
}
