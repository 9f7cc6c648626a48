// The replication identity (issue 35 item 1, spec 1.2): an account of the platform's own, PLATFORM_RECORDS,
// signed by the operator's signing key, with one user that may reach the replica's bucket and nothing else
// (replica-permissions.ts). The control plane still holds no credential inside any organization's account.
// Kept on the operator row (records_*, sealed like the $SYS keys); created when replication into the bus
// first runs, and its user minted again, with the older credential revoked, when replication.bucket changes.
import { accountClaims, credsFile, userClaims, NO_LIMIT } from "../bus/claims";
import { jwtPayload } from "../bus/issued-at";
import { operatorKeys } from "../bus/operator";
import { publishClaim } from "../bus/claim-push";
import { newNkeys, signJwt, type Nkey } from "../bus/signer";
import { sealSecret, unsealSecret } from "../lib/secrets";
import { leasePermissions, replicaPermissions } from "./replica-permissions";

export const RECORDS_ACCOUNT_NAME = "PLATFORM_RECORDS";

export interface RecordsIdentity {
  accountPub: string;
  accountJwt: string;
  /** The replica user's creds file text: a secret. */
  userCreds: string;
  /** The lease user's creds file text (the write lease's bucket only): a secret. */
  leaseCreds: string;
}

/** The write lease's KV bucket, beside the replica's. */
export const leaseBucketOf = (bucket: string): string => `${bucket}-lease`;

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
    ? {
        accountPub: stored,
        accountJwt: row.getString("records_account_jwt"),
        userCreds: unsealSecret("bus", row.getString("records_user_creds"), "the replica user's credentials"),
        leaseCreds: row.getString("records_lease_creds") && unsealSecret("bus", row.getString("records_lease_creds"), "the lease user's credentials"),
      }
    : { accountPub: "", accountJwt: "", userCreds: "", leaseCreds: "" };
  const current = identity.userCreds ? jwtPayload(credsJwt(identity.userCreds)) : null;
  if (current?.name !== userName(bucket) || !identity.leaseCreds) {
    // A signing key of the account signs its users (nats-server wants the issuer among the signing keys
    // when the user names its account); the account's own key is not kept.
    const [user, leaseUser] = newNkeys(["user", "user"]);
    const [accountPub, signing] = stored
      ? [stored, { public: jwtSigningKey(identity.accountJwt), seed: unsealSecret("bus", row.getString("records_signing_seed"), "the records account's signing key") }]
      : newAccountKeys();
    const now = Math.floor(Date.now() / 1000);
    const revocations = revocationsOf(identity.accountJwt);
    // The users of an older bucket: their credentials stop working with this claim.
    for (const creds of [identity.userCreds, identity.leaseCreds]) {
      const sub = creds ? jwtPayload(credsJwt(creds))?.sub : undefined;
      if (typeof sub === "string") revocations[sub] = now;
    }
    const mint = (key: Nkey, name: string, permissions: ReturnType<typeof replicaPermissions>) =>
      credsFile(signJwt(signing.seed, userClaims({ userPub: key.public, name, accountPub, ...permissions, iat: now })), key.seed);
    identity = {
      accountPub,
      accountJwt: signJwt(operator.signingSeed, recordsAccountClaims(accountPub, signing.public, revocations)),
      userCreds: mint(user, userName(bucket), replicaPermissions(bucket)),
      leaseCreds: mint(leaseUser, `lease:${leaseBucketOf(bucket)}`, leasePermissions(leaseBucketOf(bucket))),
    };
    row.set("records_account_pub", identity.accountPub);
    row.set("records_account_jwt", identity.accountJwt);
    row.set("records_signing_seed", sealSecret("bus", signing.seed));
    row.set("records_user_creds", sealSecret("bus", identity.userCreds));
    row.set("records_lease_creds", sealSecret("bus", identity.leaseCreds));
    app.save(row);
  }
  const outcome = publishClaim(app, identity.accountJwt);
  if (!outcome.ok) throw new Error(`the bus did not take the ${RECORDS_ACCOUNT_NAME} account's claim: ${outcome.message}`);
  return identity;
}

/** A new account's public key and its signing key pair. */
function newAccountKeys(): [string, Nkey] {
  const [account, signing] = newNkeys(["account", "account"]);
  return [account.public, signing];
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
