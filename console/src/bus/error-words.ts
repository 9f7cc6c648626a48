// A bus client's error in the words of the console: nats.js names its errors by class (ConnectionError)
// or by the server's protocol line (Authorization Violation), neither of which tells a user what
// happened or who can mend it. Pure.

const REFUSALS: [RegExp, string][] = [
  [/user authentication revoked/i, "the bus revoked this credential: an owner or admin reactivates or replaces your bus identity"],
  [
    /authorization violation|authentication expired/i,
    "the bus refused your bus identity (suspended, revoked, or its organization suspended): an owner or admin can tell which",
  ],
  [/permissions violation/i, "your bus identity may not use that subject: its permissions bound what you can do here"],
  [/maximum (account )?(active )?connections exceeded/i, "the organization's bus account has no connection left (its limit is reached)"],
];

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
