// The bus's side of record writes (spec 3.2 and 6.2), run inside each write's transaction, and the
// publication of account claims after commit.
import type { PlatformConfig } from "../config/types";
import { findRecord, organizationExists } from "../lib/collections";
import { activeTransition, deletedActiveThing, type ActiveTransition, type WriteAction, type WriteEffects } from "../lib/effects";
import type { CollectionNames } from "../schema/names";
import { accountOf, provisionAccount, refuseUnsignableExchange, resignAccount, signForSave, signedAccountJwt } from "./accounts";
import { ensureManagedExchange, removeManagedImport } from "./managed";
import { publishAccount } from "./publish";
import { publishClaim } from "./claim-push";
import { accountsWithPendingRevocations, accountWithPending, dropPendingRevocations, hasPendingRevocations, queueRevocation } from "./pending-revocations";
import { sidecarCall } from "../lib/sidecar";
import { reasonOf } from "../lib/sidecar-messages";
import { transaction } from "../lib/transaction";
import { accountNotice, publishNotices } from "./notices";
import { addRevocation, prepareNewUser, prepareUserUpdate, revocationOf, type Revocation } from "./users";

export function busEffects(n: CollectionNames, config: PlatformConfig, record: core.Record, action: WriteAction): WriteEffects | undefined {
  const name = record.collection().name;
  if (name === n.organizations && action !== "delete") {
    return { after: (tx, previous) => mirrorOrganization(tx, n, config, record, previous) };
  }
  if (name === n.organizations && action === "delete") {
    return { before: (tx) => removeManagedImport(tx, n, record) };
  }
  if (name === n.bus_users && action === "create") {
    return {
      before: (tx) => prepareNewUser(tx, n, record),
      // Born suspended: minted (6.2), and its key revoked at once as a suspension's is (3.2); without
      // this the credential connected, and kept connecting after the row was deleted.
      after: (tx) => {
        if (!record.getBool("active")) revokeInAccount(tx, n, record.getString("organization"), revocationOf(record));
      },
    };
  }
  if (name === n.bus_users && action === "update") {
    let revocation: Revocation | undefined;
    return {
      before: (tx, previous) => (revocation = prepareUserUpdate(tx, n, record, previous ?? record.original())),
      after: (tx) => revocation && revokeInAccount(tx, n, record.getString("organization"), revocation),
    };
  }
  if (name === n.bus_users && action === "delete") {
    return { after: (tx, previous) => revokeDeletedUser(tx, n, previous ?? record) };
  }
  if (name === n.things && action === "update") {
    return { after: (tx, previous) => cascadeThingActive(tx, n, record, activeTransition(previous, record)) };
  }
  if (name === n.things && action === "delete") {
    return { after: (tx, previous) => cascadeThingActive(tx, n, record, deletedActiveThing(tx, n, previous)) };
  }
  if ((name === n.bus_account_exports || name === n.bus_account_imports)) {
    return {
      before: action === "delete" ? undefined : (tx) => refuseUnsignableExchange(tx, n, record),
      after: (tx) => resignOrganizationAccount(tx, n, record.getString("organization")),
    };
  }
  if (name === n.bus_accounts && action === "update") {
    // A direct edit (limits, by a Platform Operator) changes the claim, as does every re-sign (a revocation,
    // an exchange): sign what is recorded, less the entries past their horizon, and refuse the write whose
    // claim the bus could not take.
    return { before: (tx, previous) => signForSave(tx, n, record, previous) };
  }
  return undefined;
}

/**
 * After commit: push or withdraw the account's claim (failures stay recorded on the row); after a bus
 * user's write, have the revocations it left pending signed (pending-revocations.ts).
 */
export function publishAfterCommit(app: CoreApp, n: CollectionNames, record: core.Record): void {
  const name = record.collection().name;
  if (name === n.bus_users) {
    signPendingLater(app, n, record.getString("organization"));
    return;
  }
  if (name !== n.bus_accounts) return;
  publishAccount(app, n, record);
  // Sites refresh their leaf's copy once the hub has the claim (or has not: they re-read it anyway).
  publishNotices(app, [accountNotice(record.getString("public_key"), record.getString("updated"))]);
}

/**
 * Has the sidecar sign and push the account's claim once this request has answered, if the organization's
 * bus users left revocations pending; without the sidecar's help, here and now.
 */
function signPendingLater(app: CoreApp, n: CollectionNames, organization: string): void {
  const account = accountWithPending(app, n, organization);
  if (!account) return;
  try {
    sidecarCall("/v1/bus/sign-later", { account });
  } catch (err) {
    console.warn(`bus: the pending revocations of account ${account} are signed now: the sidecar did not take them (${reasonOf(err)})`);
    signPendingRevocations(app, n, account);
  }
}

/**
 * Takes the account's pending revocations into its list and saves it, which signs the claim; the save's
 * own publication pushes it (publishAfterCommit). False when nothing was pending: a save since took them.
 */
export function signPendingRevocations(app: CoreApp, n: CollectionNames, accountId: string): boolean {
  return transaction(app, (tx) => {
    if (!hasPendingRevocations(tx, accountId)) return false;
    const account = findRecord(tx, n.bus_accounts, accountId);
    if (account) resignAccount(tx, n, account);
    else dropPendingRevocations(tx, accountId);
    return account !== undefined;
  });
}

/** Every account's pending revocations signed: the minute's reconcile takes what a crash left. */
export function signAllPendingRevocations(app: CoreApp, n: CollectionNames): void {
  for (const id of accountsWithPendingRevocations(app)) signPendingRevocations(app, n, id);
}

/** After a delete's commit: a bus user's revocation pending, or an account's claim to withdraw. */
export function publishAfterDelete(app: CoreApp, n: CollectionNames, record: core.Record): void {
  if (record.collection().name === n.bus_users) signPendingLater(app, n, record.getString("organization"));
  else withdrawDeletedAccount(app, n, record);
}

/**
 * After an account's row is deleted (with its organization, or by a SuperUser): the bus still holds its
 * last claim, active for an organization deleted without being suspended first, so its devices would keep
 * their connections and credentials. A suspended claim for the same account key withdraws it (the way a
 * suspension does; $SYS.REQ.CLAIMS.DELETE is not used, docs/bus.md). The row is gone, so the outcome is
 * logged, and the minute's reconciliation withdraws whatever this could not (reconcile.ts).
 */
function withdrawDeletedAccount(app: CoreApp, n: CollectionNames, account: core.Record): void {
  if (account.collection().name !== n.bus_accounts || !account.getBool("active")) return;
  account.set("active", false);
  const outcome = publishClaim(app, signedAccountJwt(app, n, account));
  if (!outcome.ok) console.warn(`bus: the account ${account.getString("public_key")} of a deleted organization is not withdrawn yet: ${outcome.message}`);
}

/**
 * An organization's account: provisioned with it (or on a later save, which retries a failed
 * provisioning), and its active flag mirrored. An unchanged flag still publishes again: mirroring is
 * level-triggered, so saving the organization retries a withdrawal the bus did not confirm. A suspended
 * organization's account is always withdrawn; an active one's own suspend switch (2.1, a Platform
 * Operator's) is changed only by the organization's transition, not by any other save of it (a rename
 * re-admitted an account the operator had suspended).
 */
function mirrorOrganization(tx: CoreApp, n: CollectionNames, config: PlatformConfig, organization: core.Record, previous: core.Record | undefined): void {
  const account = accountOf(tx, n, organization.id);
  if (!account) {
    provisionAccount(tx, n, config, organization);
    ensureManagedExchange(tx, n, config.bus.managed_export_subject, organization);
    return;
  }
  const active = organization.getBool("active");
  const mirrored = !active || previous?.getBool("active") !== active;
  if (mirrored && account.getBool("active") !== active) {
    account.set("active", active);
    account.set("bus_confirmed", false);
    account.set("bus_status", active ? "restoring; not yet confirmed by the bus" : "withdrawing; not yet confirmed by the bus");
  }
  tx.save(account);
  // After the save above: the exchange re-signs the account itself.
  ensureManagedExchange(tx, n, config.bus.managed_export_subject, organization);
}

/**
 * A deleted bus user's key goes on the account's revocation list, as a suspension's does: the hub knows
 * nothing of the row, so without it the deleted credential would keep connecting. An inactive user's key
 * is on the list already; with its organization, the account goes too.
 */
function revokeDeletedUser(tx: CoreApp, n: CollectionNames, user: core.Record): void {
  const organization = user.getString("organization");
  if (!user.getBool("active") || !organizationExists(tx, n, organization)) return;
  revokeInAccount(tx, n, organization, revocationOf(user));
}

function revokeInAccount(tx: CoreApp, n: CollectionNames, organization: string, revocation: Revocation): void {
  if (queueRevocation(tx, n, organization, revocation)) return;
  const account = accountOf(tx, n, organization);
  if (!account) return;
  if (addRevocation(account, revocation)) resignAccount(tx, n, account);
}

function resignOrganizationAccount(tx: CoreApp, n: CollectionNames, organization: string): void {
  // An export or import deleted with its organization: the account goes in the same cascade and is
  // withdrawn after the commit (withdrawDeletedAccount); saving it would fail on the organization gone.
  if (!organizationExists(tx, n, organization)) return;
  const account = accountOf(tx, n, organization);
  if (account) resignAccount(tx, n, account);
}

/** things.active cascades onto the linked bus user (spec 3.2): suspended with it, reissued with it. */
function cascadeThingActive(tx: CoreApp, n: CollectionNames, thing: core.Record, transition: ActiveTransition): void {
  if (!transition) return;
  const active = transition === "reactivated";
  const user = findRecord(tx, n.bus_users, thing.getString("bus_user"));
  if (!user || user.getBool("active") === active) return;
  user.set("active", active);
  tx.save(user);
}
