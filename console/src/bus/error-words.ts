// A bus client's error in the words of the console: nats.js names its errors by class (ConnectionError)
// or by the server's protocol line (Authorization Violation), neither of which tells a user what
// happened or who can mend it. Pure.

/** The hub refusing the credential itself: the identity may be suspended (refusesIdentity). */
const IDENTITY_REFUSALS: [RegExp, string][] = [
  [/user authentication revoked/i, "the bus revoked this credential: an owner or admin reactivates or replaces your bus identity"],
  [
    /authorization violation|authentication expired/i,
    "the bus refused your bus identity (suspended, revoked, or its organization suspended): an owner or admin can tell which",
  ],
];
const REFUSALS: [RegExp, string][] = [
  ...IDENTITY_REFUSALS,
  [/permissions violation/i, "your bus identity may not use that subject: its permissions bound what you can do here"],
  [/maximum (account )?(active )?connections exceeded/i, "the organization's bus account has no connection left (its limit is reached)"],
];

/** Whether `error` is the hub refusing the credential itself (revoked, or not admitted): the identity may be suspended. */
export function refusesIdentity(error: unknown): boolean {
  const text = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  return IDENTITY_REFUSALS.some(([pattern]) => pattern.test(text));
}

/**
 * What a suspended identity's screens say: the hub only refuses ("Authorization Violation"); the identity's
 * own record (readable by its member) tells why, and who can mend it.
 */
export function suspendedWords(name: string): string {
  return `Your bus identity “${name}” is suspended, so the bus refuses it. An owner or admin of this organization can reactivate it; this page connects again by itself once they do.`;
}

/** Plain words for `error`; `where` names the addresses dialled, for a server that did not answer. */
export function busErrorWords(error: unknown, where: readonly string[] = []): string {
  const name = error instanceof Error ? error.name : "";
  const message = error instanceof Error ? error.message : String(error);
  const text = `${name} ${message}`;
  for (const [pattern, words] of REFUSALS) if (pattern.test(text)) return words;
  if (/ConnectionError|connection refused|websocket|ECONNREFUSED|timeout/i.test(text)) {
    return where.length > 0 ? `no bus server answered at ${where.join(", ")}` : "no bus server answered";
  }
  return message || name || "unknown error";
}
