// The bus operator, its signing key, the $SYS account and the system user: created once, when first
// needed (bootstrap's first organization, `bus export`, serve's reconciler), and kept in
// bus_system_operator (SuperUser only; secrets sealed). A unique index on the name keeps it single
// even when two first uses race.
import { currentConfig } from "../config/runtime";
import { findAll } from "../lib/collections";
import { credsFile, NOTICE_EXPORT, operatorClaims, systemAccountClaims, userClaims } from "./claims";
import { sealSecret, unsealSecret } from "../lib/secrets";
import { newNkeys, signJwt } from "./signer";

export const SYSTEM_OPERATOR = "bus_system_operator";

export interface OperatorKeys {
  record: core.Record;
  operatorPub: string;
  signingKeyPub: string;
  signingSeed: string;
  systemAccountPub: string;
  systemUserCreds: string;
}

export function findOperator(app: CoreApp): core.Record | undefined {
  return findAll(app, SYSTEM_OPERATOR, "")[0];
}

/** Creates the operator if there is none; returns the row either way. */
export function ensureOperator(app: CoreApp, name: string): core.Record {
  const existing = findOperator(app);
  if (existing) return existing;
  const [operator, signing, system, systemSigning, systemUser] = newNkeys(["operator", "operator", "account", "account", "user"]);
  const operatorJwt = signJwt(operator.seed, operatorClaims(name, operator.public, signing.public, system.public));
  const systemJwt = signJwt(signing.seed, systemAccountClaims(system.public, systemSigning.public, [NOTICE_EXPORT]));
  // The system account's signing key signs its one user and is not kept: a new system user means
  // re-signing $SYS with a new signing key (the operator's signing key can).
  const userJwt = signJwt(systemSigning.seed, userClaims({
    userPub: systemUser.public,
    name: "platform",
    accountPub: system.public,
    publish: {},
    subscribe: {},
    iat: Math.floor(Date.now() / 1000),
  }));
  const record = new Record(app.findCollectionByNameOrId(SYSTEM_OPERATOR));
  record.load({
    name,
    operator_pub: operator.public,
    operator_jwt: operatorJwt,
    operator_seed: sealSecret("bus", operator.seed),
    signing_key_pub: signing.public,
    signing_seed: sealSecret("bus", signing.seed),
    sys_account_pub: system.public,
    sys_account_jwt: systemJwt,
    sys_account_seed: sealSecret("bus", system.seed),
    sys_user_creds: sealSecret("bus", credsFile(userJwt, systemUser.seed)),
  });
  try {
    app.save(record);
  } catch (err) {
    // Another first use (a command beside serve) created it meanwhile: the unique name kept it single.
    const created = findOperator(app);
    if (created) return created;
    throw err;
  }
  return record;
}

export function operatorKeys(app: CoreApp): OperatorKeys {
  const record = ensureOperator(app, currentConfig().bus.operator_name);
  return {
    record,
    operatorPub: record.getString("operator_pub"),
    signingKeyPub: record.getString("signing_key_pub"),
    signingSeed: unsealSecret("bus", record.getString("signing_seed"), "the operator signing key"),
    systemAccountPub: record.getString("sys_account_pub"),
    systemUserCreds: unsealSystemCreds(record),
  };
}

/** The $SYS user's creds file of an operator row; throws, naming bus.encryption_key, when it cannot be unsealed. */
export function unsealSystemCreds(operator: core.Record): string {
  return unsealSecret("bus", operator.getString("sys_user_creds"), "the system user's credentials");
}
