// Why a bus connection failed or closed, from the client library's error: the `bus` check's detail, and
// whether the hub refused the credential (an authorization error: platform sync must look at once).
export type BusFailureKind = "authorization" | "refused" | "timeout" | "other";

export interface BusFailure {
  kind: BusFailureKind;
  /** One line, safe to log and to show in /ready: the server's or the socket's wording, no creds text. */
  reason: string;
}

// nats-server's wording (client -ERR lines) for a credential it does not accept; the client library
// recognises only some of them as an authorization error, so they are matched on the text.
const AUTHORIZATION = [
  "authorization violation",
  "user authentication revoked",
  "user authentication expired",
  "account authentication expired",
  "account expired",
  "account disabled",
  "authentication timeout",
];

export function classifyBusError(err: unknown): BusFailure {
  const reason = messageOf(err);
  const text = reason.toLowerCase();
  if (AUTHORIZATION.some((wording) => text.includes(wording))) return { kind: "authorization", reason };
  const code = codeOf(err);
  if (code === "ECONNREFUSED" || text.includes("connection refused")) return { kind: "refused", reason: "connection refused" };
  if (code === "ETIMEDOUT" || /timeout|timed out/.test(text)) return { kind: "timeout", reason };
  return { kind: "other", reason };
}

/** An error's message for a log field or a reply (never the creds: no error of ours carries them). */
export function reasonOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function messageOf(err: unknown): string {
  if (err instanceof Error) {
    const cause = err.cause instanceof Error && err.cause.message && !err.message ? `: ${err.cause.message}` : "";
    return (err.message || err.name) + cause;
  }
  return String(err);
}

function codeOf(err: unknown): string | undefined {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}
