// Typed helpers over PocketBase collections and records at the goja boundary.
import type { CollectionNames } from "../schema/names";

/** Go slices are array-like in goja but not iterable. */
export function fieldsOf(collection: core.Collection): core.Field[] {
  const fields: core.Field[] = [];
  for (let i = 0; i < collection.fields.length; i++) fields.push(collection.fields[i]);
  return fields;
}

export function hasField(collection: core.Collection, name: string): boolean {
  return fieldsOf(collection).some((f) => f.getName() === name);
}

/** The record, or undefined when no record has that id. */
export function findRecord(app: CoreApp, collection: string, id: string): core.Record | undefined {
  if (!id) return undefined;
  try {
    return app.findRecordById(collection, id);
  } catch {
    return undefined;
  }
}

/**
 * Whether the organization's row is still there. Inside the cascade of its delete PocketBase has removed
 * it first, so the steps that would write about it (re-sign its account, revoke into it, feed it) skip.
 */
export function organizationExists(app: CoreApp, n: CollectionNames, organizationId: string): boolean {
  return findRecord(app, n.organizations, organizationId) !== undefined;
}

export function findFirst(app: CoreApp, collection: string, filter: string, params: Record<string, unknown>): core.Record | undefined {
  try {
    return app.findFirstRecordByFilter(collection, filter, params);
  } catch {
    return undefined;
  }
}

/**
 * The first record whose `field` equals `value`: a plain equality, so PocketBase parses no filter
 * expression (the organization's bus account and CA are looked up several times in every creation).
 */
export function findByField(app: CoreApp, collection: string, field: string, value: string): core.Record | undefined {
  if (!value) return undefined;
  try {
    return app.findFirstRecordByData(collection, field, value);
  } catch {
    return undefined;
  }
}

/** The caller's membership in an organization, if any. */
export function membershipOf(app: CoreApp, n: CollectionNames, userId: string, organizationId: string): core.Record | undefined {
  if (!userId || !organizationId) return undefined;
  return findFirst(app, n.memberships, "user = {:user} && organization = {:org}", { user: userId, org: organizationId });
}

/** Every record matching `filter` (the generated types allow undefined entries; PocketBase never returns one). */
export function findAll(app: CoreApp, collection: string, filter: string, params: Record<string, unknown> = {}, sort = "created"): core.Record[] {
  return app.findRecordsByFilter(collection, filter, sort, 0, 0, params).filter((r): r is core.Record => r !== undefined);
}
