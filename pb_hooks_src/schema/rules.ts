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
 * The caller is a user whose active organization is `orgExpr` and who holds a membership there with one
 * of `roles`. All conditions on the `@collection` alias apply to the same joined membership row.
 */
export function memberOf(memberships: string, orgExpr: string, roles: readonly Role[], alias = "m"): string {
  const m = `@collection.${memberships}:${alias}`;
  return all(
    isUser,
    `@request.auth.current_organization != ""`,
    `${orgExpr} = @request.auth.current_organization`,
    `${m}.user ?= @request.auth.id`,
    `${m}.organization ?= ${orgExpr}`,
    oneOf(`${m}.role`, roles, "?="),
  );
}

/** An update may not move a record to another organization. */
export function unchanged(field: string): string {
  return `(@request.body.${field}:isset = false || @request.body.${field} = ${field})`;
}

/** An update may not touch a field at all. */
export function untouched(field: string): string {
  return `@request.body.${field}:isset = false`;
}
