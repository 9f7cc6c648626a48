import type { PlatformConfig } from "../config/types";

/** Collection names after configuration (spec 8.3: tenancy, bus, overlay and audit names are configurable). */
export interface CollectionNames {
  organizations: string;
  memberships: string;
  invites: string;
  users: string;
  things: string;
  locations: string;
  thing_types: string;
  location_types: string;
  thing_type_operations: string;
  bus_accounts: string;
  bus_users: string;
  bus_roles: string;
  bus_account_exports: string;
  bus_account_imports: string;
  bus_system_operator: string;
  overlay_ca: string;
  overlay_networks: string;
  overlay_hosts: string;
  audit_logs: string;
  activity: string;
}

export type CollectionKey = keyof CollectionNames;

export function collectionNames(config: PlatformConfig): CollectionNames {
  return {
    organizations: config.tenancy.organizations_collection,
    memberships: config.tenancy.memberships_collection,
    invites: config.tenancy.invites_collection,
    users: "users",
    things: "things",
    locations: "locations",
    thing_types: "thing_types",
    location_types: "location_types",
    thing_type_operations: "thing_type_operations",
    bus_accounts: config.bus.account_collection_name,
    bus_users: config.bus.user_collection_name,
    bus_roles: config.bus.role_collection_name,
    bus_account_exports: config.bus.export_collection_name,
    bus_account_imports: config.bus.import_collection_name,
    bus_system_operator: "bus_system_operator",
    overlay_ca: config.overlay.ca_collection_name,
    overlay_networks: config.overlay.network_collection_name,
    overlay_hosts: config.overlay.host_collection_name,
    audit_logs: config.audit.collection_name,
    activity: "activity",
  };
}

/** The five inventory collections: the activity feed covers exactly these (spec rule 14). */
export const INVENTORY: readonly CollectionKey[] = [
  "things",
  "locations",
  "thing_types",
  "location_types",
  "thing_type_operations",
];
