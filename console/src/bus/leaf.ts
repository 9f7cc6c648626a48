// Whether a Thing's site leaf is attached to the hub (spec 4.4): the hub's answer to
// `$SYS.REQ.ACCOUNT.PING.CONNZ`, which lists the caller's account's connections, leaf uplinks included
// (kind "Leafnode"). A gateway's uplink authenticates with its Thing's own bus user (GET /api/me/leaf-config
// serves that creds file), so the uplink is the Leafnode connection authorized as that user's public key.
// "Could not look" (no answer, or the Thing's bus user not readable by the caller) is "unknown", never
// "not attached". Pure.

export type LeafState = "attached" | "not-attached" | "unknown";

/** One server's answer as nats-server sends it: `{ server, data: Connz }` or `{ error }`. */
export interface ConnzAnswer {
  data?: { connections?: Array<{ kind?: string; authorized_user?: string }> };
  error?: unknown;
}

/** The account-scoped request; `auth` makes the server name each connection's user. */
export const LEAF_CONNZ_SUBJECT = "$SYS.REQ.ACCOUNT.PING.CONNZ";
// Open connections are the default; `state` is numeric on the wire, so it is left out.
export const LEAF_CONNZ_REQUEST = { auth: true, limit: 10_000 } as const;

/** Public keys of the users holding a leaf uplink, or null when no server answered usefully. */
export function leafUsers(answers: readonly ConnzAnswer[]): Set<string> | null {
  const useful = answers.filter((a) => !a.error && Array.isArray(a.data?.connections));
  if (useful.length === 0) return null;
  const users = new Set<string>();
  for (const answer of useful) {
    for (const c of answer.data?.connections ?? []) if (c.kind === "Leafnode" && c.authorized_user) users.add(c.authorized_user);
  }
  return users;
}

/** A Thing's state from the leaf users seen (null: could not look) and its bus user's public key (null: unknown). */
export function leafState(users: Set<string> | null, busUserKey: string | null): LeafState {
  if (users === null || busUserKey === null) return "unknown";
  return users.has(busUserKey) ? "attached" : "not-attached";
}

export const LEAF_WORDS: Readonly<Record<LeafState, string>> = {
  attached: "Attached",
  "not-attached": "Not attached",
  unknown: "Unknown",
};
