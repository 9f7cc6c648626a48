/** Membership roles (spec 2.2). */
export const ROLES = ["owner", "admin", "member", "viewer", "dashboard"] as const;
export type Role = (typeof ROLES)[number];

/** Roles with full tenant authority; identical in every API rule. */
export const MANAGERS: readonly Role[] = ["owner", "admin"];
/** Roles that create and edit Things and Locations. */
export const EDITORS: readonly Role[] = ["owner", "admin", "member"];
/** Roles an invitation may offer: every role except owner. */
export const INVITABLE: readonly Role[] = ROLES.filter((r) => r !== "owner");

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}
