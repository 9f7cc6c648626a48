// Tenant bus accounts: provisioning with an organization, and the signed claim recomputed from the
// recorded state (limits, signing keys, revocations, exports, imports) whenever that state changes.
import type { PlatformConfig } from "../config/types";
import { findAll, findByField } from "../lib/collections";
import type { CollectionNames } from "../schema/names";
import { badRequest } from "../lib/errors";
import { accountClaimSizeProblem, accountClaims, limitsProblem, type AccountLimits, type Claims, type ExportClaim, type ImportClaim } from "./claims";
import { jwtIssuedAt } from "./issued-at";
import { distinctExchanges, exportsProblem, importsProblem, type ExchangeRow } from "./subjects";
import { noticeImport } from "./notices";
import { operatorKeys } from "./operator";
import { defaultRoleOf } from "./roles";
import { sealSecret, unsealSecret } from "../lib/secrets";
import { newNkeys, signJwt, signJwtWithStoredJson } from "./signer";
import { WILDCARD, prunedRevocations, type RevocationList } from "./expiry";
import { cutoffIn } from "./revocation-text";
import { longestLifetime } from "./lifetime";
import { takePendingRevocations } from "./pending-revocations";

export function accountOf(app: CoreApp, n: CollectionNames, organizationId: string): core.Record | undefined {
  return findByField(app, n.bus_accounts, "organization", organizationId);
}

/**
 * The organization's account and default role, created in the caller's transaction: a failure fails the
 * organization's save, and saving it again retries (provisioning is skipped when the account exists).
 */
export function provisionAccount(tx: CoreApp, n: CollectionNames, config: PlatformConfig, organization: core.Record): core.Record {
  const existing = accountOf(tx, n, organization.id);
  if (existing) return existing;
  const [identity, signing] = newNkeys(["account", "account"]);
  const account = new Record(tx.findCollectionByNameOrId(n.bus_accounts));
  account.load({
    organization: organization.id,
    name: organization.getString("code"),
    active: organization.getBool("active"),
    public_key: identity.public,
    limits: { ...config.bus.default_limits },
    signing_keys: [signing.public],
    seed: sealSecret("bus", identity.seed),
    signing_seeds: [sealSecret("bus", signing.seed)],
    revocations: {},
    bus_confirmed: false,
    bus_status: "not yet published",
  });
  account.set("jwt", signedAccountJwt(tx, n, account));
  tx.save(account);
  if (!defaultRoleOf(tx, n, organization.id)) {
    const role = new Record(tx.findCollectionByNameOrId(n.bus_roles));
    role.load({ organization: organization.id, name: "default", is_default: true, description: "Used for Things created with bus.mode auto and no role_id" });
    tx.save(role);
  }
  return account;
}

/** Refuses, on every writer's save, limits the account's claim could not carry (claims.ts). */
export function refuseUnsignableLimits(account: core.Record): void {
  const problem = limitsProblem(jsonOf<unknown>(account, "limits"));
  if (problem) throw badRequest(`limits ${problem}`);
}

/**
 * Refuses, inside the write's transaction, an export or import the organization's account claim could
 * not carry next to the others as committed (bus/subjects.ts): nats-server would refuse the whole claim.
 */
export function refuseUnsignableExchange(tx: CoreApp, n: CollectionNames, row: core.Record): void {
  const collection = row.collection().name;
  const others = findAll(tx, collection, "organization = {:org} && id != {:self}", { org: row.getString("organization"), self: row.id });
  const rows = exchangeRows([...others, row]);
  const problem = collection === n.bus_account_exports ? exportsProblem(rows) : importsProblem(rows);
  if (problem) throw badRequest(problem);
}

/** Export or import rows as the claim reads them (an export has no account or local subject). */
function exchangeRows(records: core.Record[]): (ExchangeRow & { name: string; kind: "stream" | "service"; account: string })[] {
  return records.map((r) => ({
    name: r.getString("name"),
    subject: r.getString("subject"),
    kind: r.getString("kind") === "service" ? ("service" as const) : ("stream" as const),
    account: r.getString("account_pub"),
    localSubject: r.getString("local_subject"),
  }));
}

/**
 * The account claim as recorded, signed by the operator's signing key; issued after `issuedAfter` too
 * (the hub's claim, which a restored record may predate: bus/hub-merge.ts).
 */
export function signedAccountJwt(app: CoreApp, n: CollectionNames, account: core.Record, issuedAfter = 0, revocations?: RevocationList | StoredList): string {
  const organization = account.getString("organization");
  const exports: ExportClaim[] = distinctExchanges(exchangeRows(findAll(app, n.bus_account_exports, "organization = {:org}", { org: organization })))
    .map((r) => ({ name: r.name, subject: r.subject, type: r.kind }));
  const imports: ImportClaim[] = distinctExchanges(exchangeRows(findAll(app, n.bus_account_imports, "organization = {:org}", { org: organization })))
    .map((r) => {
      const claim: ImportClaim = { name: r.name, subject: r.subject, account: r.account, type: r.kind };
      if (r.localSubject) claim.local_subject = r.localSubject;
      return claim;
    });
  const notices = noticeImport(app, account.getString("public_key"));
  if (notices) imports.push(notices);
  const claims: Claims = accountClaims({
    accountPub: account.getString("public_key"),
    name: account.getString("name"),
    suspended: !account.getBool("active"),
    limits: jsonOf<AccountLimits>(account, "limits"),
    signingKeys: jsonOf<string[]>(account, "signing_keys"),
    revocations: revocations === undefined ? (jsonOf<RevocationList | null>(account, "revocations") ?? {}) : isStored(revocations) ? {} : revocations,
    exports,
    imports,
  });
  // Strictly after the current claim's issue second: nats-server ignores a claim string identical to the
  // one it holds (even one it deleted), so a restore in the same second as the suspension would not take.
  // Every re-sign moves at most one second ahead, so a burst of re-signs runs ahead of the clock by its
  // length in signatures, which nats-server tolerates (it checks no issue time of an account claim).
  claims.iat = Math.max(Math.floor(Date.now() / 1000), jwtIssuedAt(account.getString("jwt")) + 1, issuedAfter + 1);
  const seed = operatorKeys(app).signingSeed;
  return revocations !== undefined && isStored(revocations) && revocations.entries > 0
    ? signJwtWithStoredJson(seed, claims, "revocations", revocations.stored)
    : signJwt(seed, claims);
}


/**
 * Signs the account's recorded state for its save, less the revocation entries that refuse nothing an
 * expiry does not (bus/expiry.ts), which leave the record too; records when the next one may go, for the
 * upkeep that re-saves the account then (bus/upkeep.ts). The list is parsed once, here, and only looked
 * through when an entry may be due: a revocation appends an entry due last.
 */
export function signForSave(app: CoreApp, n: CollectionNames, account: core.Record, previous: core.Record | undefined): void {
  // Revocations committed on their own (pending-revocations.ts) join the list with any save of the account.
  const recorded = rawJsonOf(account, "revocations");
  const stored = previous ? takePendingRevocations(app, account.id, recorded) : recorded;
  if (stored !== recorded) account.set("revocations", stored);
  const wildcard = cutoffIn(stored, WILDCARD);
  const now = Math.floor(Date.now() / 1000);
  const dueAt = previous?.getInt("revocations_prune_at") ?? 0;
  const wildcardKept = previous !== undefined && cutoffIn(rawJsonOf(previous, "revocations"), WILDCARD) === wildcard;
  const unexpiringUntil = account.getInt("unexpiring_until");
  // Until a wildcard covers the credentials that never expire, nothing is pruned (bus/expiry.ts).
  const legacyHeld = unexpiringUntil > wildcard;
  if (wildcardKept && (dueAt > now || legacyHeld)) {
    account.set("revocations_prune_at", legacyHeld ? 0 : dueAt);
    account.set("jwt", signedClaimWithinLimit(app, n, account, 0, { stored, entries: countEntries(stored) }));
    return;
  }
  const parsed = jsonOf<RevocationList | null>(account, "revocations") ?? {};
  const { list, nextPruneAt } = prunedRevocations(parsed, { now, longestLifetime: longestLifetime(app), unexpiringUntil });
  if (list !== parsed) account.set("revocations", JSON.stringify(list));
  account.set("revocations_prune_at", nextPruneAt);
  account.set("jwt", signedClaimWithinLimit(app, n, account, 0, list));
}

function refuseOversizeClaim(length: number): void {
  const problem = accountClaimSizeProblem(length);
  if (problem) throw badRequest(problem);
}

/** A revocation list as its stored JSON text, with its number of entries (0: signed without the field). */
interface StoredList {
  stored: string;
  entries: number;
}

function isStored(list: RevocationList | StoredList): list is StoredList {
  return typeof (list as StoredList).stored === "string";
}

/** Entries of a stored list: its `":` separators, as no key or cutoff holds one. */
function countEntries(stored: string): number {
  return stored.split('":').length - 1;
}

/** The account's claim as recorded, signed; refused (400) when the bus could not take it. */
export function signedClaimWithinLimit(app: CoreApp, n: CollectionNames, account: core.Record, issuedAfter = 0, revocations?: RevocationList | StoredList): string {
  const jwt = signedAccountJwt(app, n, account, issuedAfter, revocations);
  refuseOversizeClaim(jwt.length);
  return jwt;
}

/**
 * Re-signs the account after a change of its recorded state; publication follows the commit. The save's
 * own effect signs what is recorded (effects.ts); signing here as well only sets a floor for the issue
 * second (`issuedAfter`, the hub's claim's), which the effect's signature then passes: the claim is
 * signed once per write otherwise, and signing costs in proportion to the revocation list.
 */
export function resignAccount(app: CoreApp, n: CollectionNames, account: core.Record, issuedAfter = 0): void {
  if (issuedAfter > 0) account.set("jwt", signedClaimWithinLimit(app, n, account, issuedAfter));
  account.set("bus_confirmed", false);
  account.set("bus_status", "changed; not yet confirmed by the bus");
  app.save(account);
}

/** The seed of the account's first signing key, which signs its users' credentials. */
export function userSigningSeed(account: core.Record): string {
  const seeds = jsonOf<string[]>(account, "signing_seeds");
  if (!seeds || seeds.length === 0) throw new Error("the bus account has no signing key");
  return unsealSecret("bus", seeds[0], "the account signing key");
}

/** A JSON field as plain JS (the record holds a types.JSONRaw). */
export function jsonOf<T>(record: core.Record, field: string): T {
  const raw = rawJsonOf(record, field);
  return (raw ? JSON.parse(raw) : null) as T;
}

/** A JSON field's text as stored. */
export function rawJsonOf(record: core.Record, field: string): string {
  return toString(record.get(field));
}
