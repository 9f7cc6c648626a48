// API rule expressions (spec section 5). Every write branch names its roles (allowlist style, rule 8),
// and every org-scoped read requires a non-blank active organization equal to the record's one plus a
// membership in it (rule 9), so a blank current_organization never matches a blank organization.
import { ROLES, type Role } from "../lib/roles";

export const ALL_ROLES: readonly Role[] = ROLES;

/** Closed to every API caller; only SuperUsers (who bypass rules) and server code may act. */
export const CLOSED = null;

export const isUser = `@request.auth.collectionName = "users"`;
export const isOperator = `(${isUser} && @request.auth.is_operator = true)`;

/** Parenthesized as a whole, so that it can stand inside `all(...)`. */
export function anyOf(...branches: string[]): string {
  return `(${branches.map((b) => `(${b})`).join(" || ")})`;
}

export function all(...conditions: string[]): string {
  return conditions.join(" && ");
}

/** `field` equals one of `values` (a field of the record or of a joined alias). */
export function oneOf(field: string, values: readonly string[], op: "=" | "?=" = "="): string {
  return `(${values.map((v) => `${field} ${op} "${v}"`).join(" || ")})`;
}

/**
 * The users field holding the caller's role in its active organization ("" without a membership there).
 * Server code keeps it equal to the membership row inside every write that could change it
 * (tenancy/current-role.ts); rules read it as `@request.auth.current_role`, which PocketBase resolves with a
 * join on the caller's own row, so a list no longer joins memberships.
 */
export const CURRENT_ROLE = "current_role";

/**
 * The users field holding the caller's active organization as a JSON string while it holds a membership
 * there (null otherwise), kept by the same statement as current_role. A JSON field, because PocketBase
 * compares a record's `organization` with it as a plain `IS` equality, which seeks the organization
 * index; against the text field current_organization it writes COALESCE(x, '') on both sides, which no
 * column index serves (docs/performance.md "List pages").
 */
export const CURRENT_SCOPE = "current_scope";

/**
 * The caller is a user whose active organization is `orgExpr` and who holds a membership there with one
 * of `roles` (as mirrored on the caller's own row: docs/decisions/020-role-of-active-organization.md).
 * For rules checked against records PocketBase already names by id (view, the auth manage rule, writes,
 * expand): the organization is compared by value with current_organization, which no index serves, so
 * SQLite keeps the id index. Given a seekable organization term, SQLite without statistics on the table
 * estimated it cheaper than 30 id lookups and walked the whole organization for each listed page's
 * manage-rule check (docs/performance.md "List pages", point 5).
 */
export function memberOf(orgExpr: string, roles: readonly Role[]): string {
  return member(`${orgExpr} = @request.auth.current_organization`, roles);
}

/**
 * memberOf for a list rule, where nothing else narrows the rows: the organization is compared with
 * current_scope, which SQLite answers by seeking the organization index. Equivalent to memberOf: the role
 * allowlist implies a membership in the active organization, and then current_scope holds it.
 */
export function memberListing(orgExpr: string, roles: readonly Role[]): string {
  return member(`${orgExpr} = @request.auth.${CURRENT_SCOPE}`, roles);
}

/**
 * PocketBase reads `@request.auth.<field>` through `LEFT JOIN users __auth_users ON id = <caller>`, and
 * SQLite keeps a LEFT JOIN's right table outer, scanning every record, unless a WHERE term is false for a
 * missing right row. Neither the organization equality nor the role allowlist (an OR) qualifies;
 * `current_role > ""` (implied by the allowlist, so no wider) does, which lets SQLite read the caller's
 * row first.
 */
function member(sameOrganization: string, roles: readonly Role[]): string {
  const role = `@request.auth.${CURRENT_ROLE}`;
  return all(isUser, `@request.auth.current_organization != ""`, sameOrganization, `${role} > ""`, oneOf(role, roles));
}

/** An update may not move a record to another organization. */
export function unchanged(field: string): string {
  return `(@request.body.${field}:isset = false || @request.body.${field} = ${field})`;
}

/** An update may not touch a field at all. */
export function untouched(field: string): string {
  return `@request.body.${field}:isset = false`;
}
