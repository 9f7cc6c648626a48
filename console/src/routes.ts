// Paths of the console and the screens they show; pure, so the rules for `next` are unit-tested.
import { SCREENS, type Screen } from "./capabilities";

export const SIGN_IN_PATH = "/signin";
/** The invitation link's page (`/accept?token=…`), reachable signed out. */
export const ACCEPT_PATH = "/accept";

/** The link an invitation is redeemed at, on the origin that serves this console. */
export function acceptLink(origin: string, token: string): string {
  return `${origin}${ACCEPT_PATH}?token=${encodeURIComponent(token)}`;
}

export const TITLES: Readonly<Record<Screen, string>> = {
  visualizer: "Visualizer",
  live: "Live",
  fleet: "Fleet health",
  things: "Things",
  locations: "Locations",
  types: "Types",
  overlay: "Overlay",
  members: "Members",
  invitations: "Invitations",
  activity: "Activity",
  bus: "Bus",
  streams: "Streams",
  organizations: "Organizations",
  audit: "Audit log",
  settings: "Settings",
};

export function pathOf(screen: Screen): string {
  return `/${screen}`;
}

export type Place = { kind: "signin" } | { kind: "accept" } | { kind: "home" } | { kind: "screen"; screen: Screen } | { kind: "unknown" };

export function placeOf(path: string): Place {
  const clean = path.replace(/\/+$/, "") || "/";
  if (clean === "/") return { kind: "home" };
  if (clean === SIGN_IN_PATH) return { kind: "signin" };
  if (clean === ACCEPT_PATH) return { kind: "accept" };
  const screen = SCREENS.find((s) => pathOf(s) === clean);
  return screen ? { kind: "screen", screen } : { kind: "unknown" };
}

/** The sign-in page's link back to where a 401 interrupted the user. */
export function signInPath(returnTo: string): string {
  const next = safeNext(returnTo);
  const kind = next ? placeOf(next.split("?")[0]).kind : "home";
  return next && kind !== "signin" && kind !== "home" ? `${SIGN_IN_PATH}?next=${encodeURIComponent(next)}` : SIGN_IN_PATH;
}

/**
 * A `next` value is followed only when it is a path of this console: starts with one slash (not `//`,
 * which is another host, nor a backslash, which browsers treat alike), so sign-in never redirects away.
 */
export function safeNext(raw: string | null): string | null {
  if (!raw || !raw.startsWith("/") || raw.startsWith("//") || raw.includes("\\")) return null;
  return raw;
}
