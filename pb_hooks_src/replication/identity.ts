// The replication identity (issue 35 item 1, spec 1.2): an account of the platform's own, PLATFORM_RECORDS,
// signed by the operator's signing key, with one user that may reach the replica's bucket and nothing else
// (replica-permissions.ts). The control plane still holds no credential inside any organization's account.
// Kept on the operator row (records_*, sealed like the $SYS keys); created when replication into the bus
// first runs, and its user minted again, with the older credential revoked, when replication.bucket changes.
import { accountClaims, credsFile, userClaims, NO_LIMIT } from "../bus/claims";
import { jwtPayload } from "../bus/issued-at";
import { operatorKeys } from "../bus/operator";
import { publishClaim } from "../bus/publish";
import { newNkeys, signJwt, type Nkey } from "../bus/signer";
import { sealSecret, unsealSecret } from "../lib/secrets";
import { replicaPermissions } from "./replica-permissions";

export const RECORDS_ACCOUNT_NAME = "PLATFORM_RECORDS";

export interface RecordsIdentity {
  accountPub: string;
  accountJwt: string;
  /** The replica user's creds file text: a secret. */
  userCreds: string;
}

/** The user's name says which bucket its permissions name, so a changed bucket is seen. */
const userName = (bucket: string) => `replica:${bucket}`;

/**
 * The identity for `bucket`, created or re-minted as needed, its account claim pushed to the bus.
 * Throws when the bus does not confirm the claim: Litestream could not connect without it.
 */
export function ensureRecordsIdentity(app: CoreApp, bucket: string): RecordsIdentity {
  const operator = operatorKeys(app);
  const row = operator.record;
  const stored = row.getString("records_account_pub");
  let identity: RecordsIdentity = stored
    ? { accountPub: stored, accountJwt: row.getString("records_account_jwt"), userCreds: unsealSecret("bus", row.getString("records_user_creds"), "the replica user's credentials") }
    : { accountPub: "", accountJwt: "", userCreds: "" };
  const current = identity.userCreds ? jwtPayload(credsJwt(identity.userCreds)) : null;
  if (current?.name !== userName(bucket)) {
    // A signing key of the account signs its users (nats-server wants the issuer among the signing keys
    // when the user names its account); the account's own key is not kept.
    const [accountPub, signing, user] = stored
      ? [stored, { public: jwtSigningKey(identity.accountJwt), seed: unsealSecret("bus", row.getString("records_signing_seed"), "the records account's signing key") }, ...newNkeys(["user"])]
      : [...newAccountKeys()];
    const now = Math.floor(Date.now() / 1000);
    const revocations = revocationsOf(identity.accountJwt);
    // The user of an older bucket: its credential stops working with this claim.
    if (typeof current?.sub === "string") revocations[current.sub] = now;
    const userJwt = signJwt(signing.seed, userClaims({ userPub: user.public, name: userName(bucket), accountPub, ...replicaPermissions(bucket), iat: now }));
    identity = { accountPub, accountJwt: signJwt(operator.signingSeed, recordsAccountClaims(accountPub, signing.public, revocations)), userCreds: credsFile(userJwt, user.seed) };
    row.set("records_account_pub", identity.accountPub);
    row.set("records_account_jwt", identity.accountJwt);
    row.set("records_signing_seed", sealSecret("bus", signing.seed));
    row.set("records_user_creds", sealSecret("bus", identity.userCreds));
    app.save(row);
  }
  const outcome = publishClaim(app, identity.accountJwt);
  if (!outcome.ok) throw new Error(`the bus did not take the ${RECORDS_ACCOUNT_NAME} account's claim: ${outcome.message}`);
  return identity;
}

/** A new account's public key, its signing key pair and a user key pair. */
function newAccountKeys(): [string, Nkey, Nkey] {
  const [account, signing, user] = newNkeys(["account", "account", "user"]);
  return [account.public, signing, user];
}

function recordsAccountClaims(accountPub: string, signingPub: string, revocations: Record<string, number>) {
  return accountClaims({
    accountPub,
    name: RECORDS_ACCOUNT_NAME,
    suspended: false,
    // Object store chunks are up to 128 KB; the bucket is its one stream, on disk.
    limits: { max_connections: 16, max_subscriptions: NO_LIMIT, max_payload: NO_LIMIT, max_persist_disk_storage: NO_LIMIT, max_persist_memory_storage: NO_LIMIT },
    signingKeys: [signingPub],
    revocations,
    exports: [],
    imports: [],
  });
}

function credsJwt(creds: string): string {
  return /-----BEGIN NATS USER JWT-----\s*(\S+)\s*------END NATS USER JWT------/.exec(creds)?.[1] ?? "";
}

function jwtSigningKey(accountJwt: string): string {
  const nats = jwtPayload(accountJwt)?.nats as { signing_keys?: unknown[] } | undefined;
  const key = nats?.signing_keys?.[0];
  if (typeof key !== "string") throw new Error(`the ${RECORDS_ACCOUNT_NAME} account's stored claim names no signing key`);
  return key;
}

function revocationsOf(accountJwt: string): Record<string, number> {
  const nats = jwtPayload(accountJwt)?.nats as { revocations?: Record<string, number> } | undefined;
  return { ...(nats?.revocations ?? {}) };
}
