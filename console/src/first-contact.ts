// What the Thing wizard shows after creating a Thing (issue 38 item 4): the device's first contact as the
// owner's browser can observe it — its bus identity's first connection at the hub (the account-scoped
// CONNZ, spec 4.4) and its agent's first heartbeat — and, while nothing has arrived, what to check. A
// Thing's sign-in to the platform leaves nothing the browser may read, so the bus is what is watched. Pure.
import { siteState, type HubConnections } from "./fleet/sites";

export interface Contact {
  /** When its bus identity was first seen at the hub, and how (a leaf uplink or a plain client). */
  atHub?: { at: number; via: "leaf" | "client" };
  /** Its agent's first heartbeat. */
  heartbeat?: { at: number; version: string; state: string };
}

export type ContactStage = "no-bus-identity" | "cannot-watch" | "waiting" | "at-hub" | "alive";

/**
 * Where the device stands: `busIdentity` whether the Thing has one; `watching` whether this browser's bus
 * connection is open (heartbeats can be heard).
 */
export function contactStage(busIdentity: boolean, watching: boolean, contact: Contact): ContactStage {
  if (contact.heartbeat) return "alive";
  if (contact.atHub) return "at-hub";
  if (!busIdentity) return "no-bus-identity";
  return watching ? "waiting" : "cannot-watch";
}

/** How the identity with `key` is connected at the hub, or null when it is not (or could not be looked at). */
export function connectedVia(connections: HubConnections | null, key: string | null): "leaf" | "client" | null {
  const state = siteState(connections, key);
  return state === "attached" ? "leaf" : state === "direct" ? "client" : null;
}

/** A heartbeat's version and state (common/bus/agent-subjects.ts, agent/src/bus/publishing.ts), leniently. */
export function heartbeatOf(body: string): { version: string; state: string } {
  try {
    const value = JSON.parse(body) as { version?: unknown; state?: unknown };
    return { version: typeof value.version === "string" ? value.version : "", state: typeof value.state === "string" ? value.state : "" };
  } catch {
    return { version: "", state: "" };
  }
}

/** What to check on the device while nothing arrives, most likely first. */
export function checksWhileWaiting(origin: string, code: string): string[] {
  const host = new URL(origin).hostname;
  return [
    `The device reaches the control plane: curl -fsS ${origin}/api/health answers from it (a proxy, firewall or DNS name that differs there stops enrollment).`,
    `The enrollment ran as root (it writes /var/lib/iot-agent) and printed “enrolled Thing ${code}”; a wrong password or a deactivated Thing is said there.`,
    "The agent runs after enrolling: agent run, or its service; its log says when it connects to the bus.",
    "The device's clock is right (date -u): the bus refuses a credential that is not yet valid or has expired.",
    `The device reaches the bus: port 4222 of ${host}, or the addresses in its bus.servers setting.`,
  ];
}
