// GET /api/me/leaf-config: the ten fields an edge agent needs to run a leaf server (spec 4.2). Only public
// trust material and the caller's own credential; never a seed, a signing key or a $SYS credential.
import type { PlatformConfig } from "../config/types";
import { findRecord } from "../lib/collections";
import { notFound } from "../lib/errors";
import type { CollectionNames } from "../schema/names";
import { accountOf } from "./accounts";
import type { LeafConfig } from "../../common/bus/leaf-config";
import { findOperator } from "./operator";

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
