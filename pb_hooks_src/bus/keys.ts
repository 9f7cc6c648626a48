// POST /api/org/bus-account/keys (spec 4.2): the account's signing keys. add_signing is routine rotation
// (existing credentials stay valid); rotate is for suspected compromise (every key purged, one new);
// revoke_users, ours, replaces every user's key under one wildcard cutoff (issue 36).
// Credentials are always signed by the account's first signing key; when that key goes (remove_signing
// of the first key, or rotate), every active bus user is re-minted with the new first key in the same
// transaction, so a device that syncs again gets a working credential while every copy issued before
// stops validating once the account claim is published.
import { oneOfStrings, optionalString, requiredString, type JsonObject } from "../lib/body";
import { findAll } from "../lib/collections";
import { badRequest, notFound } from "../lib/errors";
import { transaction } from "../lib/transaction";
import { attribute } from "../audit/actor";
import type { CollectionNames } from "../schema/names";
import type { ActiveMembership } from "../tenancy/active";
import { accountOf, jsonOf, resignAccount } from "./accounts";
import { sealSecret } from "../lib/secrets";
import { newNkeys } from "./signer";
import { WILDCARD } from "./expiry";
import { jwtIssuedAt } from "./issued-at";

export const KEY_ACTIONS = ["add_signing", "remove_signing", "rotate", "revoke_users"] as const;
export type KeyAction = (typeof KEY_ACTIONS)[number];

export interface KeysApplied {
  applied: KeyAction;
  bus_account: string;
}

/** For an owner or admin (the route checks the role before it reads the body). */
export function manageSigningKeys(app: CoreApp, n: CollectionNames, caller: ActiveMembership, body: JsonObject): KeysApplied {
  const action = oneOfStrings(requiredString(body, "action"), KEY_ACTIONS, "action");
  const publicKey = optionalString(body, "public_key");
  if (action === "remove_signing" && !publicKey) throw badRequest("public_key is required for remove_signing");
  return transaction(app, (tx) => {
    const account = accountOf(tx, n, caller.organization.id);
    if (!account) throw notFound("the organization has no bus account");
    if (action === "revoke_users") {
      revokeAllUsers(tx, n, account, caller);
      return { applied: action, bus_account: account.id };
    }
    const keys = jsonOf<string[]>(account, "signing_keys") ?? [];
    const seeds = jsonOf<string[]>(account, "signing_seeds") ?? [];
    const firstBefore = keys[0];
    if (action === "add_signing") {
      const [key] = newNkeys(["account"]);
      keys.push(key.public);
      seeds.push(sealSecret("bus", key.seed));
    } else if (action === "remove_signing") {
      const index = keys.indexOf(publicKey);
      if (index < 0) throw badRequest("public_key is not a signing key of the account");
      if (keys.length === 1) throw badRequest("the last signing key cannot be removed");
      keys.splice(index, 1);
      seeds.splice(index, 1);
    } else {
      const [key] = newNkeys(["account"]);
      keys.splice(0, keys.length, key.public);
      seeds.splice(0, seeds.length, sealSecret("bus", key.seed));
    }
    account.set("signing_keys", keys);
    account.set("signing_seeds", seeds);
    attribute(account, caller.user);
    resignAccount(tx, n, account);
    if (keys[0] !== firstBefore) remintActiveUsers(tx, n, caller);
    return { applied: action, bus_account: account.id };
  });
}

function remintActiveUsers(tx: CoreApp, n: CollectionNames, caller: ActiveMembership, trigger: "regenerate" | "revoke" = "regenerate"): void {
  for (const user of findAll(tx, n.bus_users, "organization = {:org} && active = true", { org: caller.organization.id })) {
    user.set(trigger, true);
    attribute(user, caller.user);
    tx.save(user);
  }
}

/**
 * Revoke-and-replace of every bus user at once (every credential of the tenant leaked): one wildcard
 * cutoff at or after every credential's issue second refuses them all, and each active user gets a new
 * key and credential issued after it. Each user's own revocation is then covered by the wildcard and adds
 * no entry (users.ts#addRevocation), so the list shrinks instead of growing by the fleet's size.
 */
function revokeAllUsers(tx: CoreApp, n: CollectionNames, account: core.Record, caller: ActiveMembership): void {
  const users = findAll(tx, n.bus_users, "organization = {:org}", { org: caller.organization.id });
  const cutoff = Math.max(Math.floor(Date.now() / 1000), ...users.map((user) => jwtIssuedAt(user.getString("jwt"))));
  const list = jsonOf<Record<string, number>>(account, "revocations") ?? {};
  list[WILDCARD] = Math.max(list[WILDCARD] ?? 0, cutoff);
  account.set("revocations", list);
  attribute(account, caller.user);
  resignAccount(tx, n, account);
  remintActiveUsers(tx, n, caller, "revoke");
}
