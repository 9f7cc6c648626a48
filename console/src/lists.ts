// List parameters the console sends. Sort fields are named per collection here, and only fields the
// collection has: an unknown sort field answers 400 before any rule runs (lists.test.ts checks them
// against the schema).
import type { ListResult } from "pocketbase";

export const PAGE_SIZE = 25;

export interface SortOption {
  field: string;
  label: string;
}

/** Things: code first (the (organization, code) index answers it), then name and creation time. */
export const THING_SORTS: readonly SortOption[] = [
  { field: "code", label: "Code" },
  { field: "name", label: "Name" },
  { field: "created", label: "Created" },
];

/** Collections the Thing forms offer as choices, each sorted on this field (lists.test.ts checks both). */
export const CHOICE_COLLECTIONS = ["thing_types", "locations", "location_types", "bus_roles", "bus_users", "overlay_networks", "overlay_hosts"] as const;
export type ChoiceCollection = (typeof CHOICE_COLLECTIONS)[number];
export const CHOICE_SORT = "name";

/**
 * The Locations and Types lists sort on their name (the default) or creation time; these collections
 * index no text field, so their screens offer no search.
 */
export const INVENTORY_COLLECTIONS = ["locations", "thing_types", "location_types", "thing_type_operations", "overlay_networks"] as const;
export type InventoryCollection = (typeof INVENTORY_COLLECTIONS)[number];
export const INVENTORY_SORTS: Readonly<Record<InventoryCollection, readonly SortOption[]>> = {
  locations: [{ field: "name", label: "Name" }, { field: "code", label: "Code" }, { field: "created", label: "Created" }],
  thing_types: [{ field: "name", label: "Name" }, { field: "prefix", label: "Prefix" }, { field: "created", label: "Created" }],
  location_types: [{ field: "name", label: "Name" }, { field: "created", label: "Created" }],
  thing_type_operations: [{ field: "name", label: "Name" }, { field: "created", label: "Created" }],
  overlay_networks: [{ field: "name", label: "Name" }, { field: "cidr", label: "CIDR" }, { field: "created", label: "Created" }],
};

/** Members and invitations are listed oldest first: the order people joined or were invited in. */
export const MEMBER_SORT = "created";
export const INVITE_SORT = "created";

/** The Bus screen's lists (bus users, roles, exports, imports) by name, the order people look names up in. */
export const BUS_LISTS = ["bus_users", "bus_roles", "bus_account_exports", "bus_account_imports"] as const;
export const BUS_SORT = "name";

/** Overlay hosts by name, in the hosts list and the certificate audit. */
export const HOST_SORT = "name";

/** Organizations by name (what an operator looks for); the audit log newest first by creation time. */
export const ORGANIZATION_SORT = "name";
export const AUDIT_SORT = "created";
/** The activity feed, newest first, on its own timestamp (the collection has no created field). */
export const ACTIVITY_SORT = "timestamp";

export function sortParam(options: readonly SortOption[], field: string, descending: boolean): string {
  const known = options.find((o) => o.field === field) ?? options[0];
  return `${descending ? "-" : ""}${known.field}`;
}

/** Number of pages for a total; at least one, so "page 1 of 1" reads right for an empty list. */
export function pageCount(totalItems: number, perPage = PAGE_SIZE): number {
  return Math.max(1, Math.ceil(totalItems / perPage));
}

/**
 * One page request of a list screen, for its `$effect`: hands the page (or the server's message) over only
 * while the request is current, and answers the effect's cleanup, which makes a stale request's late
 * answer a no-op (a newer page, sort or search was asked for meanwhile).
 */
export function loadPage<T>(request: Promise<ListResult<T>>, onPage: (page: ListResult<T>) => void, onError: (failure: unknown) => void): () => void {
  let current = true;
  request.then(
    (page) => current && onPage(page),
    (failure: unknown) => current && onError(failure),
  );
  return () => {
    current = false;
  };
}
