// Bus users: credentials minted from the recorded state. A user's JWT carries its role's permissions
// (copied at creation unless given) and is signed by its account's signing key. A change of the user's
// permissions cuts the key's earlier credentials off, as a suspension does. Suspension puts the key
// on the account's revocation list with a cutoff second; anything issued later must be issued strictly
// after that second, since nats-server compares whole seconds and refuses a JWT issued at the cutoff.
import { findRecord } from "../lib/collections";
import { newRecordId, presigned } from "../lib/presigned";
import { badRequest } from "../lib/errors";
import type { CollectionNames } from "../schema/names";
import { accountOf, jsonOf, rawJsonOf, userSigningSeed } from "./accounts";
import { pendingCutoff } from "./pending-revocations";
import { cutoffIn, withRevocation } from "./revocation-text";
import { jwtIssuedAt } from "./issued-at";
import { credentialSizeProblem, credsFile, permissionsFrom, permissionsProblem, userClaims } from "./claims";
import { sealSecret, unsealSecret } from "../lib/secrets";
import { newNkeys, signJwt } from "./signer";
import { WILDCARD } from "./expiry";
import { lifetimeForMint } from "./lifetime";
import { likelyNoticeSlot, nextNoticeSlot, noticeSlotTag, withNotices } from "./notices";

/** A revocation this write adds to the account: the key and its cutoff second. */
export interface Revocation {
  publicKey: string;
  cutoff: number;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The fields of a bus user's credential, as they are stored. */
interface IssuedCredential {
  public_key: string;
  /** Sealed with bus.encryption_key when set. */
  seed: string;
  jwt: string;
  expires: number;
  creds_file: string;
}

/** Credentials POST /api/org/things signed before its transaction (lib/presigned.ts). */
export const presignedUsers = presigned<IssuedCredential>("bus.user");

/**
 * A new bus user: a fresh key, the role's permissions unless given, a minted credential, or the one the
 * creating route minted before the transaction if it was minted from exactly what is committed now.
 */
export function prepareNewUser(tx: CoreApp, n: CollectionNames, user: core.Record): void {
  inheritRolePermissions(user, findRecord(tx, n.bus_roles, user.getString("role")));
  user.set("regenerate", false);
  user.set("revoke", false);
  const account = accountOf(tx, n, user.getString("organization"));
  // As the things route refuses bus auto (spec 4.2 rule 2): a suspended account issues no identity.
  if (account && !account.getBool("active")) throw badRequest("no active bus account for the organization");
  if (account) user.set("notice_slot", nextNoticeSlot(tx, n, user.getString("organization")));
  const issued = account && presignedUsers.take(user.id, credentialBasis(account, user));
  if (issued) {
    user.load(issued);
  } else {
    replaceKey(user);
    mint(tx, n, user, account);
  }
  refuseOversizeCredential(user);
}

/**
 * Before the transaction of a write that will create `user` (unsaved, with its role's permissions):
 * mints its credential from the account as read now and keeps it for the user's hook. Returns the id the
 * user must be created with, or undefined without an account; throws what minting throws.
 */
export function presignUser(app: CoreApp, n: CollectionNames, user: core.Record): string | undefined {
  const account = accountOf(app, n, user.getString("organization"));
  if (!account) return undefined;
  user.set("notice_slot", likelyNoticeSlot(app, n, user.getString("organization")));
  replaceKey(user);
  mint(app, n, user, account);
  const id = newRecordId();
  presignedUsers.keep(id, credentialBasis(account, user), {
    public_key: user.getString("public_key"),
    seed: user.getString("seed"),
    jwt: user.getString("jwt"),
    expires: user.getInt("expires"),
    creds_file: user.getString("creds_file"),
  });
  return id;
}

/** Refuses, on a bus user or a role, permissions of a shape its credentials could not carry (claims.ts). */
export function refuseUnsignablePermissions(record: core.Record): void {
  for (const field of ["publish_permissions", "subscribe_permissions"]) {
    const problem = permissionsProblem(jsonOf<unknown>(record, field));
    if (problem) throw badRequest(`${field} ${problem}`);
  }
}

/** The role's permissions, where the user has none of its own. */
export function inheritRolePermissions(user: core.Record, role: core.Record | undefined): void {
  for (const field of ["publish_permissions", "subscribe_permissions"]) {
    if (role && jsonOf<unknown>(user, field) === null) user.set(field, jsonOf<unknown>(role, field));
  }
}

/**
 * Everything a new user's credential is minted from, as one text: the account's keys and the user's
 * name and permissions (a new key has no revocation cutoff).
 */
function credentialBasis(account: core.Record, user: core.Record): string {
  return JSON.stringify([
    account.id,
    account.getString("public_key"),
    toString(account.get("signing_seeds")),
    user.getString("organization"),
    user.getString("name"),
    user.getInt("notice_slot"),
    toString(user.get("publish_permissions")),
    toString(user.get("subscribe_permissions")),
  ]);
}

/**
 * An update of a bus user, before it is written: triggers and state changes become a new credential,
 * or a revocation the caller applies to the account after the write. `previous` is the row as committed.
 */
export function prepareUserUpdate(tx: CoreApp, n: CollectionNames, user: core.Record, previous: core.Record): Revocation | undefined {
  const wasActive = previous.getBool("active");
  const active = user.getBool("active");
  const regenerate = user.getBool("regenerate");
  const revoke = user.getBool("revoke");
  user.set("regenerate", false);
  user.set("revoke", false);

  if (wasActive && !active) return revocationOf(user);
  if (!active) {
    if (regenerate || revoke) throw badRequest(`a suspended bus user is reactivated, not ${revoke ? "revoked" : "regenerated"}`);
    return undefined;
  }
  if (revoke) {
    // Leaked credentials: the old key is cut off for good and a new key replaces it. Under an account-wide
    // revoke (bus/keys.ts) the wildcard refuses every credential of the old key already; an entry of its
    // own, which a second that ticks during a large fleet's revoke would otherwise add, is only weight.
    const revocation = revocationOf(user);
    const account = accountOf(tx, n, user.getString("organization"));
    const covered = account !== undefined && cutoffIn(rawJsonOf(account, "revocations"), WILDCARD) >= jwtIssuedAt(user.getString("jwt"));
    replaceKey(user);
    mint(tx, n, user, account);
    return covered ? undefined : revocation;
  }
  const permissionsChanged = ["publish_permissions", "subscribe_permissions"].some(
    (f) => toString(previous.get(f)) !== toString(user.get(f)),
  );
  if (permissionsChanged && wasActive) {
    // A credential carries the permissions it was signed with until it expires: the key's earlier
    // credentials are cut off, or a narrowing would not bind a holder of an older creds file. The key
    // stays, so its holder only re-reads its row (the agent does on the hub's refusal).
    const revocation = revocationOf(user);
    mint(tx, n, user, undefined, revocation.cutoff);
    refuseOversizeCredential(user);
    return revocation;
  }
  if (regenerate || !wasActive || permissionsChanged) mint(tx, n, user);
  if (permissionsChanged) refuseOversizeCredential(user);
  return undefined;
}

/**
 * A credential no client could present is refused where permissions are set (a creation, a change of
 * them), not on a re-sign: a signing-key rotation must not fail on a row minted before this check.
 */
function refuseOversizeCredential(user: core.Record): void {
  const problem = credentialSizeProblem(user.getString("jwt"));
  if (problem) throw badRequest(problem);
}

/**
 * What cuts a user's current key off: its public key, with a cutoff at or after its credential's issue
 * (a credential minted just after an earlier cutoff is issued in a second that may still lie ahead of
 * the clock).
 */
export function revocationOf(user: core.Record): Revocation {
  return { publicKey: user.getString("public_key"), cutoff: Math.max(nowSeconds(), jwtIssuedAt(user.getString("jwt"))) };
}

/**
 * Applies a revocation to the account's recorded list; false when the list already refuses the key that
 * far (its own entry, or the wildcard of an account-wide revoke), and the account needs no new claim.
 */
export function addRevocation(account: core.Record, revocation: Revocation): boolean {
  const next = withRevocation(rawJsonOf(account, "revocations"), revocation.publicKey, revocation.cutoff);
  if (next === undefined) return false;
  account.set("revocations", next);
  return true;
}

function replaceKey(user: core.Record): void {
  const [key] = newNkeys(["user"]);
  user.set("public_key", key.public);
  user.set("seed", sealSecret("bus", key.seed));
}

/**
 * Signs a credential for the user's current key, valid for bus.user_credential_lifetime, issued strictly
 * after any cutoff of that key (the recorded one, a pending one, the account's wildcard, and `cutoff`, one
 * this write is adding) and after the credential it replaces: a JWT's
 * claims are its issue second and fields, so a re-sign within the same second would hand back the very
 * same credential.
 */
function mint(
  tx: CoreApp,
  n: CollectionNames,
  user: core.Record,
  account = accountOf(tx, n, user.getString("organization")),
  cutoff = 0,
): void {
  if (!account) throw badRequest("the organization has no bus account");
  const publicKey = user.getString("public_key");
  const revocations = rawJsonOf(account, "revocations");
  // After the account's last credential minted without an expiry too, which a legacy wildcard will refuse.
  const recordedCutoff = Math.max(
    cutoffIn(revocations, publicKey),
    pendingCutoff(tx, account.id, publicKey),
    cutoffIn(revocations, WILDCARD),
    account.getInt("unexpiring_until"),
  );
  const iat = Math.max(nowSeconds(), recordedCutoff + 1, cutoff + 1, jwtIssuedAt(user.getString("jwt")) + 1);
  const exp = iat + lifetimeForMint(tx);
  // A slot recorded negative (bus/notices.ts#assignNoticeSlots) is carried from this credential on.
  const slot = Math.abs(user.getInt("notice_slot"));
  user.set("notice_slot", slot);
  const recorded = { publish: permissionsFrom(jsonOf<unknown>(user, "publish_permissions")), subscribe: permissionsFrom(jsonOf<unknown>(user, "subscribe_permissions")) };
  // A user minted before notices has no slot until its row is migrated; it is signed as before.
  const { publish, subscribe } = slot > 0 ? withNotices(recorded.publish, recorded.subscribe, slot) : recorded;
  const jwt = signJwt(userSigningSeed(account), userClaims({
    userPub: publicKey,
    name: user.getString("name"),
    accountPub: account.getString("public_key"),
    publish,
    subscribe,
    tags: slot > 0 ? [noticeSlotTag(slot)] : [],
    iat,
    exp,
  }));
  user.set("jwt", jwt);
  user.set("expires", exp);
  user.set("creds_file", credsFile(jwt, unsealSecret("bus", user.getString("seed"), "the bus user's seed")));
}
