// GET /api/me/leaf-config: the ten fields an edge agent needs to run a leaf server (spec 4.2). Only public
// trust material and the caller's own credential; never a seed, a signing key or a $SYS credential.
import type { PlatformConfig } from "../config/types";
import { findRecord } from "../lib/collections";
import { notFound } from "../lib/errors";
import type { CollectionNames } from "../schema/names";
import { accountOf } from "./accounts";
import type { LeafConfig } from "../../common/bus/leaf-config";
import { findOperator, SYSTEM_OPERATOR } from "./operator";
import { stampsOf, validatorTag } from "../lib/row-validator";

export function leafConfig(app: CoreApp, n: CollectionNames, config: PlatformConfig, thing: core.Record): LeafConfig {
  const user = findRecord(app, n.bus_users, thing.getString("bus_user"));
  if (!user) throw notFound("no bus identity is linked to this Thing");
  const account = accountOf(app, n, thing.getString("organization"));
  const operator = findOperator(app);
  if (!account || !operator) throw notFound("the organization has no bus account");
  const code = thing.getString("code");
  return {
    code,
    domain: code,
    creds: user.getString("creds_file"),
    account_jwt: account.getString("jwt"),
    account_pub: account.getString("public_key"),
    operator_jwt: operator.getString("operator_jwt"),
    sys_account_jwt: operator.getString("sys_account_jwt"),
    sys_account_pub: operator.getString("sys_account_pub"),
    hub_leaf_url: config.bus.leaf_url,
    hub_domain: config.bus.persist_domain,
  };
}

/**
 * The validator of leafConfig's answer: the Thing's row (its code), its bus user's, its organization's
 * account's and the operator's stamps (every re-sign of a claim saves its row), and the two configured
 * values. One query; no claim or credential read or hashed.
 */
export function leafConfigTag(app: CoreApp, n: CollectionNames, config: PlatformConfig, thing: core.Record): string {
  const stamps = stampsOf(
    app,
    {
      user: `SELECT [[updated]] FROM {{${n.bus_users}}} WHERE [[id]] = {:user}`,
      account: `SELECT [[updated]] FROM {{${n.bus_accounts}}} WHERE [[organization]] = {:org} LIMIT 1`,
      operator: `SELECT [[updated]] FROM {{${SYSTEM_OPERATOR}}} LIMIT 1`,
    },
    { user: thing.getString("bus_user"), org: thing.getString("organization") },
  );
  return validatorTag("leaf-config", [
    thing.id,
    thing.getString("updated"),
    stamps.user,
    stamps.account,
    stamps.operator,
    config.bus.leaf_url,
    config.bus.persist_domain,
  ]);
}
