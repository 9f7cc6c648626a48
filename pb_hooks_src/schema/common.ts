import type { Role } from "../lib/roles";
import { ALL_ROLES, CLOSED, all, anyOf, isOperator, memberListing, memberOf, unchanged } from "./rules";
import { leadingColumn } from "./index-statements";
import type { CollectionSpec, FieldSpec, RuleSet } from "./spec";

/** The owning organization of an org-scoped record: required, and deleted with the organization. */
export const ORGANIZATION: FieldSpec = {
  type: "relation",
  name: "organization",
  target: "organizations",
  required: true,
  cascadeDelete: true,
};

/**
 * The index an org-scoped rule seeks (`organization IS <the caller's current_scope>`, schema/rules.ts
 * memberOf), so a list reads only the active organization's rows, in rowid order for the page's
 * COUNT(DISTINCT _rowid_). A plain column index on purpose: an expression index on
 * COALESCE(organization, '') made the pinned SQLite answer a client's `organization = "..."` filter with
 * nothing (docs/performance.md "List pages").
 */
export const ORGANIZATION_SCOPE_INDEX = "CREATE INDEX idx_{table}_org_scope ON {table} (organization)";

/**
 * Indexes that serve a tenant's page sorted on each of `fields` (the sorts the console offers on a large
 * collection): SQLite reads the organization's rows already in that order and stops after the page,
 * where without one it sorts every row of the organization first (~270 ms at 100,000 Things;
 * docs/performance.md "List pages", point 8).
 */
export function organizationOrderIndexes(...fields: string[]): string[] {
  return fields.map((field) => `CREATE INDEX idx_{table}_org_by_${field} ON {table} (organization, ${field})`);
}

/**
 * An index on each relation field that no index of the spec leads with. Deleting a record makes
 * PocketBase look up every record that points at it (`WHERE <field> = <id>`, to cascade or clear), inside
 * the delete's transaction: without an index that lookup reads the whole table, every tenant's rows
 * (~25-65 ms at 100,000 Things; docs/performance.md "Writes in a large tenant").
 */
export function referrerIndexes(spec: CollectionSpec): string[] {
  const leading = new Set(spec.indexes.map(leadingColumn));
  return spec.fields
    .filter((field) => field.type === "relation" && !leading.has(field.name))
    .map((field) => `CREATE INDEX idx_{table}_by_${field.name} ON {table} (${field.name})`);
}

export interface OrgScopedAccess {
  read: readonly Role[];
  create: readonly Role[];
  update: readonly Role[];
  delete: readonly Role[];
  /** Roles that see the list; the others get an empty list rather than an error (rule 13). */
  list?: readonly Role[];
  /** Extra read branches (for example a Platform Operator). */
  alsoRead?: string[];
}

/** Rules of a collection whose records belong to one organization through its `organization` field. */
export function orgScopedRules(access: OrgScopedAccess): RuleSet {
  const member = (roles: readonly Role[]) => memberOf("organization", roles);
  const extra = access.alsoRead ?? [];
  return {
    list: anyOf(memberListing("organization", access.list ?? access.read), ...extra),
    view: anyOf(member(access.read), ...extra),
    create: member(access.create),
    update: all(member(access.update), unchanged("organization")),
    delete: member(access.delete),
  };
}

/**
 * An organization's trust anchor (bus account, overlay CA): every role and the Platform Operator read it;
 * only an operator edits it directly, tenants go through routes (rule 6); server code creates and
 * deletes it.
 */
export function trustAnchorRules(): RuleSet {
  const view = anyOf(memberOf("organization", ALL_ROLES), isOperator);
  const list = anyOf(memberListing("organization", ALL_ROLES), isOperator);
  return { list, view, create: CLOSED, update: all(isOperator, unchanged("organization")), delete: CLOSED };
}
