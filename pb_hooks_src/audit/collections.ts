// audit_logs (Platform-Operator-only, rule 15) and the tenant activity feed (rule 14).
import { ALL_ROLES, CLOSED, isOperator, memberListing, memberOf } from "../schema/rules";
import { ORGANIZATION } from "../schema/common";
import { TIMESTAMPS, type CollectionSpec } from "../schema/spec";

export const AUDIT_ACTIONS = ["create", "update", "delete", "auth"] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export function observabilityCollections(): CollectionSpec[] {
  const audit: CollectionSpec = {
    key: "audit_logs",
    type: "base",
    fields: [
      { type: "text", name: "collection", required: true },
      { type: "text", name: "record_id" },
      { type: "select", name: "action", values: AUDIT_ACTIONS, required: true },
      { type: "text", name: "actor" },
      { type: "json", name: "changed_fields" },
      { type: "json", name: "before" },
      { type: "json", name: "after" },
      ...TIMESTAMPS,
    ],
    // Newest first, whole or narrowed to one actor, action or collection (the console's filters): each
    // seeks its index in created order instead of scanning the log.
    indexes: [
      "CREATE INDEX idx_{table}_created ON {table} (created)",
      "CREATE INDEX idx_{table}_actor_created ON {table} (actor, created)",
      "CREATE INDEX idx_{table}_action_created ON {table} (action, created)",
      "CREATE INDEX idx_{table}_collection_created ON {table} (collection, created)",
    ],
    rules: { list: isOperator, view: isOperator, create: CLOSED, update: CLOSED, delete: CLOSED },
  };

  // Readable by exactly those who can read the inventory record it describes: every role of the
  // organization (inventory reads have no role branch). No values, only a label snapshot.
  const readers = memberOf("organization", ALL_ROLES);
  const activity: CollectionSpec = {
    key: "activity",
    type: "base",
    fields: [
      ORGANIZATION,
      { type: "text", name: "actor" },
      { type: "select", name: "action", values: ["create", "update", "delete"], required: true },
      { type: "text", name: "record", required: true },
      { type: "text", name: "resource_id" },
      { type: "text", name: "label", max: 200 },
      { type: "autodate", name: "timestamp", onUpdate: false },
    ],
    indexes: ["CREATE INDEX idx_{table}_org_timestamp ON {table} (organization, timestamp)"],
    rules: { list: memberListing("organization", ALL_ROLES), view: readers, create: CLOSED, update: CLOSED, delete: CLOSED },
  };

  return [audit, activity];
}
