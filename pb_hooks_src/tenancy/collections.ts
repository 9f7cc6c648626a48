// organizations, memberships, invites and the platform fields of users (spec 2.1, rules 4, 5, 9, 10, 16).
import { ALL_ROLES, CLOSED, CURRENT_ROLE, CURRENT_SCOPE, all, anyOf, isOperator, isUser, memberListing, memberOf, oneOf, unchanged } from "../schema/rules";
import { INVITABLE, MANAGERS, ROLES } from "../lib/roles";
import type { CollectionNames } from "../schema/names";
import { ORGANIZATION } from "../schema/common";
import { ORGANIZATION_CODE_PATTERN } from "../../common/tenancy/slug";
import { TIMESTAMPS, type CollectionSpec, type StockSettings } from "../schema/spec";

/** The stock users collection of PocketBase v0.40.4 (read from a fresh database of the pinned binary). */
const STOCK_USERS: StockSettings = {
  rules: {
    list: "id = @request.auth.id",
    view: "id = @request.auth.id",
    create: "",
    update: "id = @request.auth.id",
    delete: "id = @request.auth.id",
  },
  authRule: "",
  manageRule: CLOSED,
  tokenSeconds: 432000,
};

export function tenancyCollections(n: CollectionNames): CollectionSpec[] {
  const membership = `@collection.${n.memberships}`;
  const frozenFlags = all(unchanged("is_operator_org"), unchanged("is_system_org"));
  const tenantOrg = `is_operator_org = false && is_system_org = false`;

  const readOrganization = anyOf(
    all(isUser, `${membership}:m.user ?= @request.auth.id`, `${membership}:m.organization ?= id`,
      oneOf(`${membership}:m.role`, ALL_ROLES, "?=")),
    isOperator,
  );
  const organizations: CollectionSpec = {
    key: "organizations",
    type: "base",
    fields: [
      { type: "text", name: "code", required: true, pattern: ORGANIZATION_CODE_PATTERN },
      { type: "text", name: "name", required: true, max: 200 },
      { type: "bool", name: "active" },
      { type: "bool", name: "managed" },
      { type: "bool", name: "is_operator_org" },
      { type: "bool", name: "is_system_org" },
      ...TIMESTAMPS,
    ],
    indexes: ["CREATE UNIQUE INDEX idx_{table}_code ON {table} (code)"],
    rules: {
      // A member reads its organizations (to pick the active one); a Platform Operator reads all.
      list: readOrganization,
      view: readOrganization,
      // The operator and system organizations come from bootstrap only.
      create: all(isOperator, tenantOrg),
      // code is frozen even for operators (a typo is a SuperUser fix); suspension of platform
      // organizations is refused here and, for every writer, in the tenancy hooks.
      update: all(
        isOperator,
        unchanged("code"),
        frozenFlags,
        `(@request.body.active:isset = false || @request.body.active = true || (${tenantOrg}))`,
      ),
      delete: all(isOperator, tenantOrg),
    },
  };

  const ownRow = all(isUser, `user = @request.auth.id`, oneOf("role", ALL_ROLES));
  const memberships: CollectionSpec = {
    key: "memberships",
    type: "base",
    fields: [
      { type: "relation", name: "user", target: "users", required: true, cascadeDelete: true },
      ORGANIZATION,
      { type: "select", name: "role", values: ROLES, required: true },
      { type: "relation", name: "bus_user", target: "bus_users" },
      ...TIMESTAMPS,
    ],
    indexes: ["CREATE UNIQUE INDEX idx_{table}_user_org ON {table} (user, organization)"],
    rules: {
      // Own rows are readable without an active organization: that is how a user picks one.
      list: anyOf(ownRow, memberListing("organization", ALL_ROLES)),
      view: anyOf(ownRow, memberOf("organization", ALL_ROLES)),
      create: memberOf("organization", MANAGERS),
      update: anyOf(
        all(memberOf("organization", MANAGERS), unchanged("organization"), unchanged("user")),
        // Rule 10: a member may keep or clear its own bus_user link, never re-point it.
        all(
          ownRow,
          unchanged("organization"),
          unchanged("user"),
          unchanged("role"),
          `(@request.body.bus_user:isset = false || @request.body.bus_user = "" || @request.body.bus_user = bus_user)`,
        ),
      ),
      // Leaving is allowed to every role; an owner's leaving is a console guard, not a rule (spec 2.2).
      delete: anyOf(memberOf("organization", MANAGERS), ownRow),
    },
  };

  const invites: CollectionSpec = {
    key: "invites",
    type: "base",
    fields: [
      ORGANIZATION,
      { type: "email", name: "email", required: true },
      { type: "select", name: "role", values: INVITABLE, required: true },
      { type: "text", name: "token", max: 128 },
      { type: "date", name: "expiry" },
      { type: "relation", name: "invited_by", target: "users" },
      ...TIMESTAMPS,
    ],
    indexes: ["CREATE UNIQUE INDEX idx_{table}_token ON {table} (token) WHERE token != ''"],
    rules: {
      list: memberListing("organization", MANAGERS),
      view: memberOf("organization", MANAGERS),
      // Rule 16: a Platform Operator may invite into any organization, without a membership.
      create: all(anyOf(memberOf("organization", MANAGERS), isOperator), `role != "owner"`),
      update: CLOSED,
      delete: memberOf("organization", MANAGERS),
    },
  };

  const self = all(isUser, `id = @request.auth.id`);
  const users: CollectionSpec = {
    key: "users",
    type: "auth",
    extendsStock: STOCK_USERS,
    fields: [
      { type: "bool", name: "is_operator" },
      { type: "relation", name: "current_organization", target: "organizations" },
      // The role of the membership in current_organization, mirrored by the server for the API rules
      // (schema/rules.ts#memberOf); whatever a writer puts here is recomputed in the same transaction.
      { type: "text", name: CURRENT_ROLE, hidden: true, pattern: `^(${ROLES.join("|")})?$` },
      // current_organization while a membership there exists, for the rules' indexed equality; same keeper.
      { type: "json", name: CURRENT_SCOPE, hidden: true },
    ],
    indexes: [],
    rules: {
      list: anyOf(self, isOperator, coMember(n)),
      view: anyOf(self, isOperator, coMember(n)),
      // Rule 4: no branch grants is_operator, and nobody injects an active organization at sign-up.
      create: all(`is_operator = false`, `current_organization = ""`, anyOf(`@request.auth.id = ""`, isOperator)),
      update: all(
        self,
        unchanged("is_operator"),
        // The active organization must be one the user belongs to (or blank).
        `(@request.body.current_organization:isset = false || @request.body.current_organization = "" || (${membership}:target.user ?= id && ${membership}:target.organization ?= @request.body.current_organization))`,
      ),
      delete: self,
    },
    auth: { authRule: "", manageRule: CLOSED, tokenSeconds: 604800 },
  };

  return [organizations, memberships, invites, users];
}

/** Users sharing the caller's active organization (to show who is in it). */
function coMember(n: CollectionNames): string {
  const peer = `@collection.${n.memberships}:peer`;
  const me = `@collection.${n.memberships}:me`;
  return all(
    isUser,
    `@request.auth.current_organization != ""`,
    `${peer}.user ?= id`,
    `${peer}.organization ?= @request.auth.current_organization`,
    `${me}.user ?= @request.auth.id`,
    `${me}.organization ?= @request.auth.current_organization`,
    oneOf(`${me}.role`, ALL_ROLES, "?="),
  );
}
