// serve's start after a restore or a promotion (issue 35 item 3): each account's claim as the hub holds it
// is read before the records are published again, and what the hub has that the records lack (a
// revocation, a suspension: writes lost in the replication window) is merged back into the records, so
// that no publication undoes it (bus/hub-merge.ts says how). The loss is named in the log.
import { findAll, findRecord } from "../lib/collections";
import type { CollectionNames } from "../schema/names";
import { jsonOf, resignAccount } from "./accounts";
import { hubAccountOf, mergeHubAccount } from "./hub-merge";
import { jwtIssuedAt, jwtPayload } from "./issued-at";
import { WILDCARD } from "./expiry";
import { systemRequest } from "./publish";
import { writeRefusal } from "../replication/lease";

/** How many accounts took something back from the hub; nothing when the bus does not answer. */
export function adoptHubClaims(app: CoreApp, n: CollectionNames): number {
  if (writeRefusal(app)) return 0; // not the primary: its records are not the ones to fix
  let adopted = 0;
  for (const account of findAll(app, n.bus_accounts, "")) {
    let claim: string;
    try {
      claim = systemRequest(app, `$SYS.REQ.ACCOUNT.${account.getString("public_key")}.CLAIMS.LOOKUP`, "");
    } catch {
      return adopted; // the bus does not answer: the minute's reconcile publishes later, nothing to merge now
    }
    if (adoptHubClaim(app, n, account, claim)) adopted++;
  }
  return adopted;
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
  const when = (seconds: number) => new Date(seconds * 1000).toISOString();
  console.warn(
    `bus: the hub holds account ${account.getString("name")}'s claim issued ${when(hub.issuedAt)}, the records one issued ${when(recordIssued)}: ` +
      `writes to this organization's organizations, bus_accounts and bus_users rows after ${when(recordIssued)} were lost in the replication window; ` +
      `kept from the hub: ${merged.adopted.length} revocation${merged.adopted.length === 1 ? "" : "s"}${merged.suspend ? " and the suspension" : ""}`,
  );
  return true;
}
