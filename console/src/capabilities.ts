// What the console renders for a signed-in user: the capability matrix of spec 5.1 and the role standing
// of spec 2.2, as data. It decides rendering only; the API rules are the security boundary (spec 1.8),
// so a capability granted here never makes a request succeed that the rules refuse.

export const ROLES = ["owner", "admin", "member", "viewer", "dashboard"] as const;
export type Role = (typeof ROLES)[number];

/** Who is signed in, as far as rendering goes: the active membership's role and the operator flag. */
export interface Identity {
  /** Role of the membership in users.current_organization; null without one. */
  role: Role | null;
  /** users.is_operator (Platform Operator), independent of any membership. */
  operator: boolean;
}

/** One row (or part of a row) of the 5.1 matrix each; SuperUser-only rows have no console capability. */
export type Capability =
  /** Read things, locations, thing_types, location_types, thing_type_operations. */
  | "inventory.read"
  /** Create and edit Things and Locations. */
  | "inventory.edit"
  /** Delete a Thing or Location. */
  | "inventory.delete"
  /** Deactivate or reactivate a Thing, reset its password, attach a bus user or overlay host. */
  | "things.identity"
  /** Manage Thing Types, Location Types and Thing Type Operations. */
  | "types.manage"
  /** Read or manage bus users, roles, imports, exports; overlay networks and hosts. */
  | "infrastructure.manage"
  /** Read the organization's bus account and overlay CA. */
  | "account.read"
  /** Edit the bus account or overlay CA record directly. */
  | "account.edit"
  /** Manage account signing keys through POST /api/org/bus-account/keys. */
  | "signing-keys.manage"
  /** Roll the overlay CA through POST /api/org/overlay-ca/rotate. */
  | "overlay-ca.rotate"
  /** Read own linked bus identity, clear own membership's link, rotate own credential. */
  | "own-bus-identity"
  /** Choose which bus identity a membership links to; revoke-and-replace, suspend, reactivate one. */
  | "bus-identity.manage"
  /** Persistent streams and key-value buckets (bounded by the bus; offered to owner/admin). */
  | "streams.manage"
  /** Use dashboards (the visualizer). */
  | "dashboards.use"
  /** Create invitations. */
  | "invites.create"
  /** List and revoke invitations, change roles, remove members. */
  | "memberships.manage"
  /** Create, edit, suspend, reactivate, delete an organization. */
  | "organizations.manage"
  /** Read the activity feed (the API allows every role; the console omits dashboard). */
  | "activity.read"
  /** Read the audit log. */
  | "audit.read"
  /** Leave the active organization (an owner may not: spec 2.2, a console guard). */
  | "organization.leave";

const MANAGERS: readonly Role[] = ["owner", "admin"];
const EDITORS: readonly Role[] = ["owner", "admin", "member"];
const STAFF: readonly Role[] = ["owner", "admin", "member", "viewer"];

/** Roles granted each capability, and whether a Platform Operator has it regardless of membership. */
const GRANTS: Readonly<Record<Capability, { roles: readonly Role[]; operator: boolean }>> = {
  "inventory.read": { roles: ROLES, operator: false },
  "inventory.edit": { roles: EDITORS, operator: false },
  "inventory.delete": { roles: MANAGERS, operator: false },
  "things.identity": { roles: MANAGERS, operator: false },
  "types.manage": { roles: MANAGERS, operator: false },
  "infrastructure.manage": { roles: MANAGERS, operator: false },
  "account.read": { roles: ROLES, operator: true },
  "account.edit": { roles: [], operator: true },
  "signing-keys.manage": { roles: MANAGERS, operator: false },
  "overlay-ca.rotate": { roles: MANAGERS, operator: false },
  "own-bus-identity": { roles: ROLES, operator: false },
  "bus-identity.manage": { roles: MANAGERS, operator: false },
  "streams.manage": { roles: MANAGERS, operator: false },
  "dashboards.use": { roles: ROLES, operator: false },
  "invites.create": { roles: MANAGERS, operator: true },
  "memberships.manage": { roles: MANAGERS, operator: false },
  "organizations.manage": { roles: [], operator: true },
  "activity.read": { roles: STAFF, operator: false },
  "audit.read": { roles: [], operator: true },
  "organization.leave": { roles: ["admin", "member", "viewer", "dashboard"], operator: false },
};

export function can(identity: Identity, capability: Capability): boolean {
  const grant = GRANTS[capability];
  if (identity.operator && grant.operator) return true;
  return identity.role !== null && grant.roles.includes(identity.role);
}

/** The console's screens, in navigation order. */
export const SCREENS = [
  "visualizer",
  "live",
  "fleet",
  "things",
  "locations",
  "types",
  "overlay",
  "members",
  "invitations",
  "activity",
  "bus",
  "streams",
  "organizations",
  "audit",
  "settings",
] as const;
export type Screen = (typeof SCREENS)[number];

/** Inventory screens are not rendered for the dashboard role: its console is the visualizer and its settings (2.2). */
function browsesInventory(identity: Identity): boolean {
  return identity.role !== null && identity.role !== "dashboard" && can(identity, "inventory.read");
}

/**
 * The Bus screen shows the active organization's account to every role that has a console beyond the
 * visualizer (5.1 "every role" reads it; 2.2 keeps dashboards to the visualizer); its management parts
 * follow their own capabilities. An operator without a membership has no active organization to show.
 */
function busScreen(identity: Identity): boolean {
  return identity.role !== null && identity.role !== "dashboard" && can(identity, "account.read");
}

const SCREEN_RULES: Readonly<Record<Screen, (identity: Identity) => boolean>> = {
  visualizer: (i) => can(i, "dashboards.use"),
  // The live view lists Things and dials the bus with the caller's own bus identity (5.1 rows: inventory
  // read, own linked bus identity); not the dashboard role, whose console is the visualizer (2.2).
  live: (i) => browsesInventory(i) && can(i, "own-bus-identity"),
  // Fleet health reads Things and what the role may read beside them; the rest is "unknown", stated.
  fleet: browsesInventory,
  things: browsesInventory,
  locations: browsesInventory,
  types: browsesInventory,
  // The CA is readable by every role (5.1), networks and hosts by owner/admin; the dashboard role's console
  // is the visualizer (2.2), and the CA is an organization's, so an operator without a membership has none.
  overlay: (i) => i.role !== null && i.role !== "dashboard" && can(i, "account.read"),
  members: (i) => can(i, "memberships.manage"),
  invitations: (i) => can(i, "invites.create"),
  activity: (i) => can(i, "activity.read"),
  bus: busScreen,
  // Over the caller's own bus connection (5.1: bounded by its permissions); an operator without a membership
  // has no organization account, and "streams.manage" already leaves out member, viewer and dashboard.
  streams: (i) => can(i, "streams.manage") && can(i, "own-bus-identity"),
  organizations: (i) => can(i, "organizations.manage"),
  audit: (i) => can(i, "audit.read"),
  settings: () => true,
};

export function canSee(identity: Identity, screen: Screen): boolean {
  return SCREEN_RULES[screen](identity);
}

/** The screens a user's navigation shows, in order. */
export function screensFor(identity: Identity): Screen[] {
  return SCREENS.filter((screen) => canSee(identity, screen));
}

/**
 * Where a user lands after signing in: the dashboard role on its visualizer, other roles on Things, a
 * Platform Operator without a membership on Organizations, anyone else (no organization) on settings.
 */
export function landingScreen(identity: Identity): Screen {
  if (identity.role === "dashboard") return "visualizer";
  if (identity.role !== null) return "things";
  if (identity.operator) return "organizations";
  return "settings";
}
