// Accounts the bus still holds whose row is gone: an organization deleted while the bus could not confirm
// the withdrawal of its account (effects.ts withdrawDeletedAccount). The minute's reconciliation lists the
// resolver's accounts and withdraws each unknown one that still admits connections, with a suspended claim
// signed by the operator, the claim a suspension publishes. One already withdrawn is left as it is.
import { findAll } from "../lib/collections";
import type { CollectionNames } from "../schema/names";
import { accountClaims, type Claims } from "./claims";
import { jwtIssuedAt, jwtPayload } from "./issued-at";
import { operatorKeys } from "./operator";
import { publishClaim } from "./claim-push";
import { systemRequest } from "./system-request";
import { signJwt } from "./signer";

/** What finding and withdrawing orphans reads and writes. */
export interface OrphanSources {
  /** The account keys the bus's resolver holds. */
  listed(): string[];
  /** The account keys the database records (the platform's own accounts included). */
  known(): Set<string>;
  /** The claim the bus holds for an account. */
  claimOf(account: string): string;
  /** Pushes a signed withdrawal; whether the bus confirmed it. */
  withdraw(claims: Claims): boolean;
}

/** How many accounts were withdrawn; throws when the bus does not answer the listing. */
export function withdrawOrphanAccounts(app: CoreApp, n: CollectionNames): number {
  const operator = operatorKeys(app);
  return withdrawOrphans({
    listed: () => listedAccounts(systemRequest(app, "$SYS.REQ.CLAIMS.LIST", "")),
    // The platform's own accounts ($SYS, the records account of replication) are never orphans.
    known: () => new Set([operator.systemAccountPub, operator.record.getString("records_account_pub"), ...findAll(app, n.bus_accounts, "").map((a) => a.getString("public_key"))]),
    claimOf: (account) => systemRequest(app, `$SYS.REQ.ACCOUNT.${account}.CLAIMS.LOOKUP`, ""),
    withdraw: (claims) => {
      const { ok } = publishClaim(app, signJwt(operator.signingSeed, claims));
      if (ok) console.warn(`bus: withdrew the account ${claims.sub}: the bus held it without a row (its organization was deleted while the bus was down)`);
      return ok;
    },
  });
}

/**
 * The database is read after the listing, not before: an account is published only after its row
 * commits, so every account on the list that the database does not hold then is truly orphaned. Read
 * before, an organization created in between (its claim already on the list) was taken for an orphan and
 * its new account withdrawn until the next minute.
 */
export function withdrawOrphans(sources: OrphanSources): number {
  const listed = sources.listed();
  const known = sources.known();
  let withdrawn = 0;
  for (const account of listed) {
    if (known.has(account)) continue;
    const claim = sources.claimOf(account);
    const payload = jwtPayload(claim);
    if (!payload || !admitsConnections(payload)) continue;
    if (sources.withdraw(withdrawnClaims(account, payload, jwtIssuedAt(claim)))) withdrawn++;
  }
  return withdrawn;
}

/** The account keys of a `$SYS.REQ.CLAIMS.LIST` reply (`{ data: [...] }`). */
export function listedAccounts(reply: string): string[] {
  const parsed: unknown = JSON.parse(reply);
  const data = typeof parsed === "object" && parsed !== null ? (parsed as { data?: unknown }).data : undefined;
  return Array.isArray(data) ? data.filter((id): id is string => typeof id === "string") : [];
}

/** Whether a claim lets clients connect (a suspended one sets `conn` to 0; absent means unlimited). */
export function admitsConnections(payload: Record<string, unknown>): boolean {
  const limits = (payload.nats as { limits?: { conn?: unknown } } | undefined)?.limits;
  return limits?.conn !== 0;
}

/** A suspended claim for `account`, keeping the stored-data limits it had, issued after its last claim. */
export function withdrawnClaims(account: string, payload: Record<string, unknown>, lastIssued: number): Claims {
  const limits = (payload.nats as { limits?: Record<string, unknown> } | undefined)?.limits ?? {};
  const storage = (value: unknown) => (typeof value === "number" ? value : -1);
  const claims = accountClaims({
    accountPub: account,
    name: typeof payload.name === "string" ? payload.name : account,
    suspended: true,
    limits: {
      max_connections: 0,
      max_subscriptions: 0,
      max_payload: 0,
      max_persist_disk_storage: storage(limits.disk_storage),
      max_persist_memory_storage: storage(limits.mem_storage),
    },
    signingKeys: [],
    revocations: {},
    exports: [],
    imports: [],
  });
  claims.iat = Math.max(Math.floor(Date.now() / 1000), lastIssued + 1);
  return claims;
}
