// The callers of the capability matrix, each as one or more worlds: a concrete caller relative to the
// record whose access is checked (who is signed in, with which role in the record's organization, whether
// a Platform Operator). A world decides a rule's terms on the caller; the other terms stay conditions.
import { ROLES, type Role } from "../../lib/roles";
import type { CollectionNames } from "../names";
import { CURRENT_ROLE, CURRENT_SCOPE } from "../rules";
import type { CollectionSpec } from "../spec";
import type { Value } from "./parse";

export type Caller = "anonymous" | "thing" | Role | "other" | "operator" | "superuser";
export const CALLERS: readonly Caller[] = ["anonymous", "thing", ...ROLES, "other", "operator", "superuser"];

export interface World {
  /** Who is signed in. */
  auth: "none" | "users" | "things";
  operator: boolean;
  /** The caller's active organization: the record's, another one, or none. */
  active: "record" | "other" | "none";
  /** The caller's role in its active organization ("" without one). */
  role: Role | "";
  /** Shown when the caller's worlds disagree. */
  label: string;
}

// Symbolic values that no literal of a rule can equal.
export const RECORD_ORG = "\u0000record-organization";
const OTHER_ORG = "\u0000other-organization";
const CALLER_ID = "\u0000caller";

export function worldsOf(caller: Exclude<Caller, "superuser">): World[] {
  if (caller === "anonymous") return [{ auth: "none", operator: false, active: "none", role: "", label: "" }];
  if (caller === "thing") return [{ auth: "things", operator: false, active: "none", role: "", label: "" }];
  if (caller === "other" || caller === "operator") {
    const operator = caller === "operator";
    return [
      { auth: "users", operator, active: "none", role: "", label: "without an active organization" },
      ...ROLES.map((role): World => ({ auth: "users", operator, active: "other", role, label: `as ${role} of another active organization` })),
    ];
  }
  return [{ auth: "users", operator: false, active: "record", role: caller, label: "" }];
}

/** `@request.auth.<field>` in a world; undefined when the world does not decide it. */
export function authValue(world: World, field: string, n: CollectionNames): Value | undefined {
  // PocketBase resolves every field of a missing auth record to blank.
  if (world.auth === "none") return "";
  if (field === "id") return CALLER_ID;
  if (field === "collectionName") return n[world.auth];
  if (world.auth === "things") return undefined;
  const organization = world.active === "record" ? RECORD_ORG : world.active === "other" ? OTHER_ORG : "";
  const fields: Record<string, Value> = {
    is_operator: world.operator,
    current_organization: organization,
    [CURRENT_SCOPE]: organization,
    [CURRENT_ROLE]: world.role,
  };
  return Object.prototype.hasOwnProperty.call(fields, field) ? fields[field] : undefined;
}

/** The caller's membership rows, as far as a world knows them. */
export function membershipsOf(world: World): { organization: string; role: Role }[] {
  if (world.auth !== "users" || world.role === "") return [];
  return [{ organization: world.active === "record" ? RECORD_ORG : OTHER_ORG, role: world.role }];
}

/** A rule evaluated for one world on a record of `spec`. */
export interface Scope {
  spec: CollectionSpec;
  n: CollectionNames;
  world: World;
}
