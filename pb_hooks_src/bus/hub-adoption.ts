// The hub's claims before any push of serve's own (issue 35 item 3): after a restore or a promotion the
// records may lack what the hub took (a revocation, a suspension: writes lost in the replication window),
// and a claim signed from them and pushed would undo it. So each account's claim as the hub holds it is
// read and merged back into the records (bus/hub-merge.ts says how) before this serve pushes a tenant's
// claim: at its start, and, when the bus did not answer then, at the first push or the minute's reconcile
// that finds it answering. The loss is named in the log.
import { findAll, findRecord } from "../lib/collections";
import type { CollectionNames } from "../schema/names";
import { jsonOf, resignAccount } from "./accounts";
import { hubAccountOf, mergeHubAccount } from "./hub-merge";
import { jwtIssuedAt, jwtPayload } from "./issued-at";
import { WILDCARD } from "./expiry";
import { systemRequest } from "./system-request";
import { writeRefusal } from "../replication/lease";
import { operationReasonOf } from "../lib/sidecar-messages";

/** In the store every VM shares: "reading" while one request reads the hub's claims, "read" after. */
const READ_KEY = "platform.bus.hub_claims";

/**
 * Whether the hub's claims are read. A call that read them names the accounts whose pushes waited for it:
 * those it merged the hub's claim into (and re-signed), and those whose claim is not confirmed.
 */
export type HubReading = { read: true; merged: string[]; waiting: string[] } | { read: false; reason: string };

const READ_BEFORE: HubReading = { read: true, merged: [], waiting: [] };

/**
 * Under serve, whether this process has read the hub's claims, reading them now if not (one request at a
 * time). Other commands push without reading: only serve starts from a restored copy.
 */
export function readHubClaimsOnce(app: CoreApp, n: CollectionNames): HubReading {
  if (!$os.args.includes("serve")) return READ_BEFORE;
  let mine = false;
  app.store().setFunc(READ_KEY, (state: unknown) => {
    if (state === "read" || state === "reading") return state;
    mine = true;
    return "reading";
  });
  if (!mine) {
    return app.store().get(READ_KEY) === "read" ? READ_BEFORE : { read: false, reason: "the hub's claims are being read first" };
  }
  let reading: HubReading;
  try {
    reading = adoptHubClaims(app, n);
  } catch (err) {
    reading = { read: false, reason: `the hub's claims could not be merged: ${operationReasonOf(err)}` };
  }
  if (!reading.read) {
    app.store().remove(READ_KEY);
    return reading;
  }
  app.store().set(READ_KEY, "read");
  return { ...reading, waiting: unconfirmedAccounts(app, n) };
}

/** serve's start and each lease taken: the hub's claims read again, whatever an earlier term read. */
export function readHubClaimsAgain(app: CoreApp, n: CollectionNames): HubReading {
  app.store().remove(READ_KEY);
  return readHubClaimsOnce(app, n);
}

/** A lookup that failed is tried once more: on a loaded machine one reply can miss its timeout. */
const LOOKUP_ATTEMPTS = 2;

function adoptHubClaims(app: CoreApp, n: CollectionNames): HubReading {
  const refusal = writeRefusal(app);
  if (refusal) return { read: false, reason: refusal }; // not the primary: its records are not the ones to fix
  const merged: string[] = [];
  for (const account of findAll(app, n.bus_accounts, "")) {
    const subject = `$SYS.REQ.ACCOUNT.${account.getString("public_key")}.CLAIMS.LOOKUP`;
    let claim: string | undefined;
    let failure: unknown;
    for (let attempt = 0; attempt < LOOKUP_ATTEMPTS && claim === undefined; attempt++) {
      try {
        claim = systemRequest(app, subject, "");
      } catch (err) {
        failure = err;
      }
    }
    if (claim === undefined) return { read: false, reason: `the hub's claim of account ${account.getString("name")} could not be read (${operationReasonOf(failure)})` };
    if (adoptHubClaim(app, n, account, claim)) merged.push(account.id);
  }
  return { read: true, merged, waiting: [] };
}

/** Accounts whose push a reading kept waiting, or whose claim the bus has not confirmed for another reason. */
function unconfirmedAccounts(app: CoreApp, n: CollectionNames): string[] {
  return findAll(app, n.bus_accounts, "bus_confirmed = false").map((account) => account.id);
}

function adoptHubClaim(app: CoreApp, n: CollectionNames, account: core.Record, claim: string): boolean {
  const hub = hubAccountOf(jwtPayload(claim));
  if (!hub) return false;
  const recordIssued = jwtIssuedAt(account.getString("jwt"));
  const merged = mergeHubAccount(
    { revocations: jsonOf<Record<string, number>>(account, "revocations") ?? {}, active: account.getBool("active"), issuedAt: recordIssued },
    hub,
  );
  if (!merged.newerAtHub && merged.adopted.length === 0) return false;

  account.set("revocations", merged.revocations);
  resignAccount(app, n, account, hub.issuedAt);
  // A user whose current credential the hub refuses is inactive, as the hub treats it.
  const organization = account.getString("organization");
  for (const key of merged.adopted) {
    if (key === WILDCARD) continue;
    const user = findAll(app, n.bus_users, "organization = {:org} && public_key = {:key} && active = true", { org: organization, key })[0];
    if (user && (merged.revocations[key] ?? 0) >= jwtIssuedAt(user.getString("jwt"))) {
      user.set("active", false);
      app.save(user);
    }
  }
  // A wildcard is an account-wide revoke-and-replace whose replacements were lost: replaced again.
  if (merged.adopted.includes(WILDCARD)) {
    for (const user of findAll(app, n.bus_users, "organization = {:org} && active = true", { org: organization })) {
      if ((merged.revocations[WILDCARD] ?? 0) < jwtIssuedAt(user.getString("jwt"))) continue;
      user.set("revoke", true);
      app.save(user);
    }
  }
  const org = merged.suspend ? findRecord(app, n.organizations, organization) : undefined;
  if (org?.getBool("active")) {
    org.set("active", false);
    app.save(org);
  }
  console.warn(lossLine(account.getString("name"), hub.issuedAt, recordIssued, merged.adopted.length, merged.suspend));
  return true;
}

function lossLine(name: string, hubIssued: number, recordIssued: number, adopted: number, suspend: boolean): string {
  const when = (seconds: number) => new Date(seconds * 1000).toISOString();
  const kept = `kept from the hub: ${adopted} revocation${adopted === 1 ? "" : "s"}${suspend ? " and the suspension" : ""}`;
  if (hubIssued > recordIssued) {
    return (
      `bus: the hub holds account ${name}'s claim issued ${when(hubIssued)}, the records one issued ${when(recordIssued)}: ` +
      `writes to this organization's organizations, bus_accounts and bus_users rows after ${when(recordIssued)} were lost in the replication window; ${kept}`
    );
  }
  // The records changed again before the hub could be read (the bus was down at serve's start).
  return `bus: the hub's claim of account ${name}, issued ${when(hubIssued)}, holds revocations the records' later claim lacked; ${kept}`;
}
