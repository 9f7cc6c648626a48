// A site's standing at the hub (issue 38 item 3), from the hub's account-scoped CONNZ (spec 4.4, decision
// 452) and the Thing's bus user public key: its leaf uplink attached, only a direct client connection, or
// nothing at the hub under its identity (islanded). "Could not look" (no answer, the key not readable by
// the caller's role, no bus identity) is "unknown", never islanded. Pure.
import type { ConnzAnswer } from "../bus/leaf";

export type SiteState = "attached" | "direct" | "islanded" | "unknown";

/** What the hub holds per user public key: whether a leaf uplink, whether a client connection. */
export interface HubConnections {
  leaf: Set<string>;
  client: Set<string>;
}

/** The answers' connections by kind, or null when no server answered usefully. */
export function hubConnections(answers: readonly ConnzAnswer[]): HubConnections | null {
  const useful = answers.filter((a) => !a.error && Array.isArray(a.data?.connections));
  if (useful.length === 0) return null;
  const seen: HubConnections = { leaf: new Set(), client: new Set() };
  for (const answer of useful) {
    for (const c of answer.data?.connections ?? []) {
      if (!c.authorized_user) continue;
      (c.kind === "Leafnode" ? seen.leaf : seen.client).add(c.authorized_user);
    }
  }
  return seen;
}

/** A Thing's site state from what the hub holds (null: could not look) and its bus user key (null: unknown). */
export function siteState(connections: HubConnections | null, busUserKey: string | null): SiteState {
  if (connections === null || !busUserKey) return "unknown";
  if (connections.leaf.has(busUserKey)) return "attached";
  return connections.client.has(busUserKey) ? "direct" : "islanded";
}

export const SITE_WORDS: Readonly<Record<SiteState, string>> = {
  attached: "Attached (leaf uplink)",
  direct: "Connected directly (no leaf)",
  islanded: "Islanded (nothing at the hub)",
  unknown: "Unknown",
};
