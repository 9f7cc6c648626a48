// Bus collections (spec 2.1 bus rows, rules 6, 12, 13). Minting arrives with the bus credential service;
// the schema and its rules exist from the start so that no tenant can reach a row it must not see.
import { ALL_ROLES, CLOSED, all, anyOf, memberOf } from "../schema/rules";
import { MANAGERS } from "../lib/roles";
import type { CollectionNames } from "../schema/names";
import { MAX_ACCOUNT_JWT_BYTES } from "./claims";
import { ORGANIZATION, organizationOrderIndexes, orgScopedRules, trustAnchorRules } from "../schema/common";
import { LARGE_TEXT, TIMESTAMPS, type CollectionSpec } from "../schema/spec";

export function busCollections(n: CollectionNames): CollectionSpec[] {
  const managersOnly = orgScopedRules({ read: MANAGERS, create: MANAGERS, update: MANAGERS, delete: MANAGERS });
  const permissions = [
    { type: "json", name: "publish_permissions" },
    { type: "json", name: "subscribe_permissions" },
  ] as const;

  const accounts: CollectionSpec = {
    key: "bus_accounts",
    type: "base",
    fields: [
      ORGANIZATION,
      { type: "text", name: "name" },
      { type: "bool", name: "active" },
      { type: "text", name: "public_key" },
      // As long as the bus takes: a claim past it is refused with its own reason (claims.ts).
      { type: "text", name: "jwt", max: MAX_ACCOUNT_JWT_BYTES },
      { type: "json", name: "limits" },
      { type: "json", name: "signing_keys" },
      { type: "text", name: "seed", hidden: true },
      { type: "json", name: "signing_seeds", hidden: true },
      // User public key (or `*`, every key) → revocation cutoff (unix seconds), part of the signed claim.
      { type: "json", name: "revocations" },
      // When the next entry may be pruned (0: none), and the last issue second of a credential minted
      // without an expiry (0: none), which keeps every entry until a wildcard covers it (bus/expiry.ts).
      { type: "number", name: "revocations_prune_at", onlyInt: true },
      { type: "number", name: "unexpiring_until", onlyInt: true },
      // Whether the bus confirmed the recorded state (claim present when active, withdrawn when not).
      { type: "bool", name: "bus_confirmed" },
      { type: "text", name: "bus_status", max: 500 },
      ...TIMESTAMPS,
    ],
    indexes: [
      "CREATE UNIQUE INDEX idx_{table}_organization ON {table} (organization)",
      "CREATE INDEX idx_{table}_prune_at ON {table} (revocations_prune_at) WHERE revocations_prune_at > 0",
    ],
    rules: trustAnchorRules(),
  };

  // Rule 12: besides owner/admin, a member reads exactly the row linked to its own membership (a view
  // rule only, so the join on memberships never runs over a list). All conditions on the alias apply to
  // the same joined membership row.
  const m = `@collection.${n.memberships}:m`;
  const linkedToCaller = all(
    memberOf("organization", ALL_ROLES),
    `${m}.user ?= @request.auth.id`,
    `${m}.organization ?= organization`,
    `${m}.bus_user ?= id`,
  );
  const users: CollectionSpec = {
    key: "bus_users",
    type: "base",
    fields: [
      ORGANIZATION,
      { type: "text", name: "name", required: true, max: 200 },
      { type: "relation", name: "role", target: "bus_roles" },
      { type: "bool", name: "active" },
      // Triggers, cleared after use: re-sign the same key (regenerate) or replace a leaked key (revoke).
      { type: "bool", name: "regenerate" },
      { type: "bool", name: "revoke" },
      ...permissions,
      { type: "text", name: "public_key" },
      { type: "text", name: "jwt", max: LARGE_TEXT },
      // The credential's expiry (unix seconds; 0: minted before credentials expired), for the renewal.
      { type: "number", name: "expires", onlyInt: true },
      // Where the user's change notices arrive (common/bus/notices.ts): unique in the organization; negative
      // while its credential does not carry it yet, 0 for no slot.
      { type: "number", name: "notice_slot", onlyInt: true },
      // creds_file embeds the user seed and is deliberately not hidden: rules scope it to its owner.
      { type: "text", name: "creds_file", max: LARGE_TEXT },
      { type: "text", name: "seed", hidden: true },
      ...TIMESTAMPS,
    ],
    indexes: [...organizationOrderIndexes("name"), "CREATE INDEX idx_{table}_renewal ON {table} (expires) WHERE active = 1",
      "CREATE UNIQUE INDEX idx_{table}_notice_slot ON {table} (organization, notice_slot) WHERE notice_slot != 0"],
    rules: { ...managersOnly, view: anyOf(managersOnly.view ?? "", linkedToCaller) },
  };

  const roles: CollectionSpec = {
    key: "bus_roles",
    type: "base",
    fields: [
      ORGANIZATION,
      { type: "text", name: "name", required: true, max: 200 },
      { type: "text", name: "description", max: 2000 },
      { type: "bool", name: "is_default" },
      ...permissions,
      ...TIMESTAMPS,
    ],
    // At most one default role per organization: bus.mode auto must know which one it means.
    indexes: ["CREATE UNIQUE INDEX idx_{table}_default ON {table} (organization) WHERE is_default = 1"],
    rules: managersOnly,
  };

  const exchange = (key: "bus_account_exports" | "bus_account_imports", extra: CollectionSpec["fields"]) => ({
    key,
    type: "base" as const,
    fields: [
      ORGANIZATION,
      { type: "text" as const, name: "name", required: true, max: 200 },
      { type: "text" as const, name: "subject", required: true, max: 500 },
      { type: "select" as const, name: "kind", values: ["stream", "service"], required: true },
      ...extra,
      ...TIMESTAMPS,
    ],
    indexes: [],
    rules: managersOnly,
  });

  const exports = exchange("bus_account_exports", [{ type: "bool", name: "public" }]);
  const imports = exchange("bus_account_imports", [
    // The exporting account: a NATS account public key.
    { type: "text", name: "account_pub", required: true, pattern: "^A[A-Z2-7]{55}$" },
    { type: "text", name: "local_subject", max: 500 },
  ]);

  // The operator, $SYS and the platform's records account: SuperUser custody only.
  const systemOperator: CollectionSpec = {
    key: "bus_system_operator",
    type: "base",
    fields: [
      { type: "text", name: "name" },
      { type: "text", name: "operator_pub" },
      { type: "text", name: "operator_jwt", max: LARGE_TEXT },
      { type: "text", name: "operator_seed", hidden: true },
      { type: "text", name: "signing_key_pub" },
      { type: "text", name: "signing_seed", hidden: true },
      { type: "text", name: "sys_account_pub" },
      { type: "text", name: "sys_account_jwt", max: LARGE_TEXT },
      { type: "text", name: "sys_account_seed", hidden: true },
      { type: "text", name: "sys_user_creds", hidden: true, max: LARGE_TEXT },
      // The platform's own account for its record store's replica (replication/identity.ts).
      { type: "text", name: "records_account_pub" },
      { type: "text", name: "records_account_jwt", max: LARGE_TEXT },
      { type: "text", name: "records_signing_seed", hidden: true },
      { type: "text", name: "records_user_creds", hidden: true, max: LARGE_TEXT },
      { type: "text", name: "records_lease_creds", hidden: true, max: LARGE_TEXT },
      // The longest lifetime (seconds) a bus user's credential was ever minted with: never lowered, since
      // a revocation entry is pruned only once every credential it refuses has expired (bus/expiry.ts).
      { type: "number", name: "longest_user_credential_lifetime", onlyInt: true },
      ...TIMESTAMPS,
    ],
    // One operator: two first uses racing to create it cannot both succeed.
    indexes: ["CREATE UNIQUE INDEX idx_{table}_name ON {table} (name)"],
    rules: { list: CLOSED, view: CLOSED, create: CLOSED, update: CLOSED, delete: CLOSED },
  };

  return [accounts, users, roles, exports, imports, systemOperator];
}
