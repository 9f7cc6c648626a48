// The five inventory collections (spec 2.1, capability matrix 5.1). Things are auth records (devices).
import { ALL_ROLES, all, anyOf, memberListing, memberOf, unchanged, untouched } from "../schema/rules";
import { EDITORS, MANAGERS } from "../lib/roles";
import { ORGANIZATION, organizationOrderIndexes, orgScopedRules } from "../schema/common";
import { TIMESTAMPS, type CollectionSpec, type FieldSpec } from "../schema/spec";

/** Thing codes form the local part of generated e-mails, so they stay e-mail safe. */
export const THING_CODE_PATTERN = "^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$";
export const THING_TYPE_PREFIX_PATTERN = "^[A-Za-z0-9]{1,12}$";
export const THING_TOKEN_SECONDS = 7 * 24 * 3600;
/** bcrypt's minimum. */
export const THING_PASSWORD_COST = 4;

const IMAGE_TYPES = ["image/png", "image/jpeg", "image/svg+xml", "image/webp", "application/pdf"];

export function inventoryCollections(): CollectionSpec[] {
  const readers = memberOf("organization", ALL_ROLES);
  const managers = memberOf("organization", MANAGERS);
  const editors = memberOf("organization", EDITORS);
  const thingSelf = `(@request.auth.collectionName = "things" && id = @request.auth.id)`;
  // Deactivation, passwords, e-mail and linked identities are owner/admin business (5.1).
  const memberEditable = all(
    `(@request.body.active:isset = false || @request.body.active = active)`,
    untouched("password"),
    untouched("email"),
    `(@request.body.bus_user:isset = false || @request.body.bus_user = bus_user)`,
    `(@request.body.overlay_host:isset = false || @request.body.overlay_host = overlay_host)`,
  );

  const things: CollectionSpec = {
    key: "things",
    type: "auth",
    fields: [
      { type: "text", name: "name", required: true, max: 200 },
      { type: "text", name: "code", pattern: THING_CODE_PATTERN },
      { type: "text", name: "description", max: 2000 },
      { type: "relation", name: "type", target: "thing_types" },
      { type: "relation", name: "location", target: "locations" },
      { type: "json", name: "metadata" },
      ORGANIZATION,
      { type: "bool", name: "active" },
      { type: "relation", name: "bus_user", target: "bus_users" },
      { type: "relation", name: "overlay_host", target: "overlay_hosts" },
      ...TIMESTAMPS,
    ],
    // code is unique per organization in any letter case; blank codes are filled in by a hook.
    indexes: [
      "CREATE UNIQUE INDEX idx_{table}_org_code ON {table} (organization, code COLLATE NOCASE) WHERE code != ''",
      ...organizationOrderIndexes("code", "name", "created"),
    ],
    rules: {
      // A Thing views its own record; the list stays a plain membership rule.
      list: memberListing("organization", ALL_ROLES),
      view: anyOf(readers, thingSelf),
      create: anyOf(
        managers,
        all(editors, `bus_user = ""`, `overlay_host = ""`, `(@request.body.active:isset = false || @request.body.active = true)`),
      ),
      update: all(anyOf(managers, all(editors, memberEditable)), unchanged("organization")),
      delete: managers,
    },
    // Thing passwords are generated (24 random alphanumerics, ~143 bits): bcrypt's work factor adds no
    // strength to those, while the default cost (10) took ~60 ms of every Thing creation
    // (docs/decisions/062-thing-passwords-bcrypt-cost-4.md).
    auth: { authRule: "active = true", manageRule: managers, tokenSeconds: THING_TOKEN_SECONDS, passwordCost: THING_PASSWORD_COST },
  };

  const locations: CollectionSpec = {
    key: "locations",
    type: "base",
    fields: [
      { type: "text", name: "name", required: true, max: 200 },
      { type: "text", name: "code", max: 64 },
      { type: "text", name: "description", max: 2000 },
      { type: "relation", name: "type", target: "location_types" },
      { type: "relation", name: "parent", target: "locations" },
      { type: "json", name: "metadata" },
      { type: "file", name: "floor_plan", mimeTypes: IMAGE_TYPES },
      ORGANIZATION,
      ...TIMESTAMPS,
    ],
    indexes: organizationOrderIndexes("name", "code", "created"),
    rules: orgScopedRules({ read: ALL_ROLES, create: EDITORS, update: EDITORS, delete: MANAGERS }),
  };

  const typeRules = orgScopedRules({ read: ALL_ROLES, create: MANAGERS, update: MANAGERS, delete: MANAGERS });
  const named: FieldSpec[] = [
    { type: "text", name: "name", required: true, max: 200 },
    { type: "text", name: "description", max: 2000 },
  ];

  const thingTypes: CollectionSpec = {
    key: "thing_types",
    type: "base",
    fields: [
      ...named,
      { type: "text", name: "prefix", pattern: THING_TYPE_PREFIX_PATTERN },
      { type: "file", name: "icon", mimeTypes: IMAGE_TYPES },
      ORGANIZATION,
      ...TIMESTAMPS,
    ],
    indexes: [],
    rules: typeRules,
  };

  const locationTypes: CollectionSpec = {
    key: "location_types",
    type: "base",
    fields: [...named, ORGANIZATION, ...TIMESTAMPS],
    indexes: [],
    rules: typeRules,
  };

  const operations: CollectionSpec = {
    key: "thing_type_operations",
    type: "base",
    fields: [
      ...named,
      { type: "relation", name: "thing_type", target: "thing_types", required: true, cascadeDelete: true },
      { type: "json", name: "payload_schema" },
      ORGANIZATION,
      ...TIMESTAMPS,
    ],
    indexes: [],
    rules: typeRules,
  };

  return [things, locations, thingTypes, locationTypes, operations];
}
