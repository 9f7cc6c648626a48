// Change notices, control plane side (common/bus/notices.ts has the subjects and the authorization
// argument): the export the $SYS account carries, the import each organization's account carries, the
// notice slot of each bus user, and the publication after a commit. A notice is best-effort: the bus down
// or slow costs a device its head start, never a write; polling stays the fallback.
import { currentConfig } from "../config/runtime";
import { sharedStore } from "../lib/app-store";
import { sidecarCall } from "../lib/sidecar";
import { reasonOf } from "../lib/sidecar-messages";
import { unsealSecret } from "../lib/secrets";
import type { CollectionNames } from "../schema/names";
import {
  accountNoticeSubject,
  MAX_NOTICE_SLOT,
  NOTICE_IMPORT_NAME,
  NOTICE_ROOT,
  NOTICE_SLOT_TAG,
  noticeImportSubject,
  otherSlotsDenied,
  overlayNoticeSubject,
  userNoticeSubject,
  type Notice,
} from "../../common/bus/notices";
import { badRequest } from "../lib/errors";
import { findByField, findRecord } from "../lib/collections";
import { findOperator, operatorKeys, SYSTEM_OPERATOR, unsealSystemCreds } from "./operator";
import { NOTICE_EXPORT, systemAccountClaims, type ImportClaim, type Permissions } from "./claims";
import { jwtPayload } from "./issued-at";
import { signJwt } from "./signer";
import { publishClaim } from "./claim-push";
import { accountPublicKey } from "./account-key";
import { serverUrls } from "./server-port";
import { writeRefusal } from "../replication/lease";
import { takeWriteLock } from "../lib/transaction";

const PUBLISH_TIMEOUT_MS = 1000;

/**
 * The import of one organization's notices, with the activation token the $SYS account signs for that
 * account alone. Tokens carry no expiry; one is signed per account and process and kept in the store.
 */
export function noticeImport(app: CoreApp, accountPub: string): ImportClaim | undefined {
  const operator = findOperator(app);
  if (!operator) return undefined;
  const systemPub = operator.getString("sys_account_pub");
  const key = `bus.notice-activation.${systemPub}.${accountPub}`;
  // The store answers a missing key with null.
  let token = sharedStore().get(key) as string | null;
  if (!token) {
    const seed = unsealSecret("bus", operator.getString("sys_account_seed"), "the system account key");
    const subject = noticeImportSubject(accountPub);
    token = sidecarCall<{ jwt: string }>("/v1/jwt", {
      seed,
      claims: { sub: accountPub, name: NOTICE_IMPORT_NAME, nats: { type: "activation", version: 2, subject, kind: "stream" } },
    }).jwt;
    sharedStore().set(key, token);
  }
  return { name: NOTICE_IMPORT_NAME, subject: noticeImportSubject(accountPub), account: systemPub, token, type: "stream" };
}

/**
 * A user's permissions with its notices: its own slot's subject and the organization's subjects allowed
 * where it has an allow list, every other slot's subject denied, and publishing under the notices denied.
 */
export function withNotices(publish: Permissions, subscribe: Permissions, slot: number): { publish: Permissions; subscribe: Permissions } {
  const own = [userNoticeSubject("*", slot), accountNoticeSubject("*"), overlayNoticeSubject("*")];
  return {
    publish: { allow: publish.allow, deny: [...(publish.deny ?? []), `${NOTICE_ROOT}.>`] },
    subscribe: {
      allow: subscribe.allow?.length ? [...subscribe.allow, ...own] : subscribe.allow,
      deny: [...(subscribe.deny ?? []), ...otherSlotsDenied(slot)],
    },
  };
}

export const noticeSlotTag = (slot: number): string => `${NOTICE_SLOT_TAG}${slot}`;

/**
 * The slot a new bus user of the organization gets: one past the highest, read inside the write's
 * transaction after its write lock (lib/transaction.ts), so two creations cannot take the same one.
 */
export function nextNoticeSlot(tx: CoreApp, n: CollectionNames, organization: string): number {
  takeWriteLock(tx);
  return likelyNoticeSlot(tx, n, organization);
}

/**
 * The slot a creation will likely get, read before its transaction (a credential minted ahead,
 * lib/presigned.ts): the transaction reads it again and mints anew if another creation took it.
 */
export function likelyNoticeSlot(app: CoreApp, n: CollectionNames, organization: string): number {
  const row = new DynamicModel({ highest: 0 });
  app.db()
    .newQuery(`SELECT COALESCE(MAX(ABS(notice_slot)), 0) AS highest FROM {{${n.bus_users}}} WHERE organization = {:org}`)
    .bind({ org: organization })
    .one(row);
  const slot = row.highest + 1;
  if (slot > MAX_NOTICE_SLOT) throw badRequest(`the organization has had ${MAX_NOTICE_SLOT} bus users, the most it can: no new one can be created`);
  return slot;
}

export interface OutgoingNotice {
  subject: string;
  notice: Notice;
}

/** A notice for the holder of a bus user (its device, its site's gateway). */
export function userNotice(accountPub: string, slot: number, changed: Notice["changed"], revision: string): OutgoingNotice | undefined {
  if (slot < 1 || accountPub === "") return undefined;
  return { subject: userNoticeSubject(accountPub, slot), notice: { changed, revision } };
}

export function accountNotice(accountPub: string, revision: string): OutgoingNotice {
  return { subject: accountNoticeSubject(accountPub), notice: { changed: "account", revision } };
}

export function overlayNotice(accountPub: string, revision: string): OutgoingNotice {
  return { subject: overlayNoticeSubject(accountPub), notice: { changed: "overlay", revision } };
}

/**
 * Publishes committed changes' notices as the system user. Never throws: a bus that cannot take them
 * is logged, and devices learn of the change at their next poll. A demoted primary publishes nothing.
 */
export function publishNotices(app: CoreApp, notices: readonly (OutgoingNotice | undefined)[]): void {
  const messages = notices.filter((x): x is OutgoingNotice => x !== undefined).map(({ subject, notice }) => ({ subject, payload: JSON.stringify(notice) }));
  if (messages.length === 0 || writeRefusal(app)) return;
  const operator = findOperator(app);
  if (!operator) return;
  try {
    sidecarCall("/v1/nats/publish", {
      servers: serverUrls(currentConfig().bus.server_url),
      creds: unsealSystemCreds(operator),
      messages,
      timeoutMs: PUBLISH_TIMEOUT_MS,
    }, PUBLISH_TIMEOUT_MS / 1000 + 2);
  } catch (err) {
    app.logger().warn("bus: change notices not published; devices learn of the change at their next poll", "count", messages.length, "error", reasonOf(err));
  }
}

/**
 * For the migration that brought notices: every existing user gets a slot, in order of creation per
 * organization, recorded negative: its credential does not carry it yet. The upkeep re-mints those
 * (bus/upkeep.ts), which makes the slot positive. Plain SQL: a migration runs before the sidecar.
 */
export function assignNoticeSlots(app: CoreApp, n: CollectionNames): void {
  app.db()
    .newQuery(
      `UPDATE {{${n.bus_users}}} SET notice_slot = -ranked.slot FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY organization ORDER BY created, id) AS slot FROM {{${n.bus_users}}}) AS ranked ` +
        `WHERE ranked.id = {{${n.bus_users}}}.id AND {{${n.bus_users}}}.notice_slot = 0`,
    )
    .execute();
}

/**
 * An operator created before notices has a $SYS claim without their export: it is signed again with it
 * (same signing key, so the system user stays valid) and pushed to the bus. Returns whether it was.
 */
export function ensureNoticeExport(app: CoreApp): boolean {
  const operator = findOperator(app);
  if (!operator) return false;
  const claim = jwtPayload(operator.getString("sys_account_jwt"));
  const nats = (claim?.nats ?? {}) as { exports?: { subject?: string }[]; signing_keys?: string[] };
  if ((nats.exports ?? []).some((e) => e.subject === NOTICE_EXPORT.subject)) return false;
  const systemSigningKey = nats.signing_keys?.[0];
  if (!systemSigningKey) return false;
  const jwt = signJwt(operatorKeys(app).signingSeed, systemAccountClaims(operator.getString("sys_account_pub"), systemSigningKey, [NOTICE_EXPORT]));
  app.db().newQuery(`UPDATE {{${SYSTEM_OPERATOR}}} SET sys_account_jwt = {:jwt} WHERE id = {:id}`).bind({ jwt, id: operator.id }).execute();
  const outcome = publishClaim(app, jwt);
  if (!outcome.ok) app.logger().warn("bus: the system account's notice export is recorded; the bus takes it at its next start", "reason", outcome.message);
  return true;
}

/**
 * After the commit of a write to a bus user, a Thing, an overlay host or an overlay CA: the notices of
 * the devices it concerns. A Thing hears through its bus user's slot, so a Thing without one (no bus
 * connection) is told nothing and polls. A CA's change is its blocklist's, which every host's served
 * config carries: one notice for the organization. The revision is the row's `updated`.
 */
export function noticesAfterCommit(app: CoreApp, n: CollectionNames, record: core.Record): void {
  const name = record.collection().name;
  const organization = record.getString("organization");
  const revision = record.getString("updated");
  const accountPub = () => accountPublicKey(app, n, organization);
  const slotOf = (userId: string) => findRecord(app, n.bus_users, userId)?.getInt("notice_slot") ?? 0;
  if (name === n.bus_users) publishNotices(app, [userNotice(accountPub(), record.getInt("notice_slot"), "bus_user", revision)]);
  else if (name === n.things) publishNotices(app, [userNotice(accountPub(), slotOf(record.getString("bus_user")), "thing", revision)]);
  else if (name === n.overlay_hosts) {
    const thing = findByField(app, n.things, "overlay_host", record.id);
    if (thing) publishNotices(app, [userNotice(accountPub(), slotOf(thing.getString("bus_user")), "overlay_host", revision)]);
  } else if (name === n.overlay_ca) publishNotices(app, [overlayNotice(accountPub(), revision)]);
}
