// Dispatch of record hooks to the domains, by collection. main.pb.js binds these for every collection,
// or for the collections of hookTags().
import { currentConfig } from "./config/runtime";
import { recordOf, requestOfRecordEvent } from "./lib/events";
import { collectionNames } from "./schema/names";
import { busEffects, publishAfterCommit, publishAfterDelete } from "./bus/effects";
import { noticesAfterCommit } from "./bus/notices";
import { busStatusCollections } from "./bus/enrich";
import { COUNTED_LISTS } from "./schema/row-counts";
import { combineEffects, type WriteAction } from "./lib/effects";
import { withApiErrors } from "./lib/errors";
import { relationsExist } from "./lib/relations";
import { nonBooleanFlag } from "./lib/body";
import { sentJsonBody } from "./lib/request";
import { fieldsOf } from "./lib/collections";
import { journal } from "./audit/journal";
import { isDerivedActivity } from "./audit/writer";
import { stampActor } from "./audit/actor";
import { refuseUnsignablePermissions } from "./bus/users";
import { refuseUnsignableLimits } from "./bus/accounts";
import { refuseSecondDefaultRole } from "./bus/roles";
import { serverFieldsChanged } from "./schema/server-fields";
import { overlayEffects } from "./overlay/effects";
import { refuseUnusableNetwork } from "./overlay/networks";
import { prepareThing, refuseBlankCode, thingEffects } from "./inventory/things";
import { prepareInvite } from "./tenancy/invites";
import { refuseInstallerSuperuser } from "./tenancy/installer";
import { currentRoleEffects } from "./tenancy/current-role";
import { clearActiveOrganization, refuseCrossTenantRelations, refuseOrganizationChange, refusePlatformOrganizationDelete, refusePlatformOrganizationSuspension } from "./tenancy/invariants";

/**
 * The collections each narrowly-concerned record hook is bound to. PocketBase runs every bound handler in
 * a hook VM of its pool, and a handler that calls e.next() holds its VM through everything after it (the
 * write, the nested saves of its entries): binding a hook only where it acts keeps the VMs one request
 * holds at once few, so concurrent requests do not exhaust the pool (docs/performance.md).
 */
export function hookTags(): {
  prepared: string[];
  membershipDeletes: string[];
  published: string[];
  noticed: string[];
  busStatus: string[];
  hostConfigs: string[];
  countedLists: string[];
} {
  const n = collectionNames(currentConfig());
  return {
    prepared: [n.invites, n.things],
    membershipDeletes: [n.memberships],
    published: [n.bus_accounts, n.bus_users],
    noticed: [n.bus_users, n.things, n.overlay_hosts, n.overlay_ca],
    busStatus: busStatusCollections(n),
    hostConfigs: [n.overlay_hosts],
    countedLists: COUNTED_LISTS.map((key) => n[key]),
  };
}

/** onRecordValidate: the invariants that hold for every writer. */
export function validate(e: core.RecordEvent): void {
  const n = collectionNames(currentConfig());
  const record = recordOf(e);
  refuseInstallerSuperuser(record);
  refuseOrganizationChange(record);
  refuseCrossTenantRelations(e.app, n, record);
  const name = record.collection().name;
  if (name === n.organizations) refusePlatformOrganizationSuspension(record);
  if (name === n.bus_users || name === n.bus_roles) withApiErrors(() => refuseUnsignablePermissions(record));
  if (name === n.bus_roles) withApiErrors(() => refuseSecondDefaultRole(e.app, n, record));
  if (name === n.bus_accounts) withApiErrors(() => refuseUnsignableLimits(record));
  if (name === n.overlay_networks) withApiErrors(() => refuseUnusableNetwork(record));
}

/**
 * onRecordUpdateRequest: the caller is stamped for the audit entry. Fields only the server writes
 * (schema/server-fields.ts) are refused to every caller but a SuperUser, and a Thing's code cannot be
 * blanked (its sign-in address was made from it).
 */
export function beforeUpdateRequest(e: core.RecordRequestEvent): void {
  stampActor(e);
  const n = collectionNames(currentConfig());
  const record = recordOf(e);
  const name = record.collection().name;
  const body = e.requestInfo().body as Record<string, unknown>;
  refuseNonBooleanFlag(e);
  const read = (row: core.Record) => (field: string) => row.getString(field);
  const changed = e.hasSuperuserAuth() ? [] : serverFieldsChanged(n, name, read(record.original()), read(record));
  if (changed.length > 0) throw new BadRequestError(`${changed.join(", ")}: set by the server, not writable`);
  if (name === n.things) withApiErrors(() => refuseBlankCode(body));
}

/** onRecordCreate (hookTags().prepared), before the insert: generated values. */
export function beforeCreate(e: core.RecordEvent): void {
  const config = currentConfig();
  const n = collectionNames(config);
  const record = recordOf(e);
  const name = record.collection().name;
  if (name === n.invites) prepareInvite(record, config.tenancy.invite_expiry_days, new Date());
  if (name === n.things) withApiErrors(() => prepareThing(e.app, n, record));
}

/**
 * onRecordDelete (hookTags().membershipDeletes), after the delete (which has committed by then). Reads end with the membership itself,
 * since every read rule checks it; clearing the user's active organization follows (rule 9).
 */
export function afterDelete(e: core.RecordEvent): void {
  const n = collectionNames(currentConfig());
  const record = recordOf(e);
  if (record.collection().name === n.memberships) clearActiveOrganization(e.app, n, record);
}

/**
 * onRecordCreateRequest: booleans land as false, so an omitted `active` means active, and a bool sent as
 * anything but a boolean is refused; an invitation's token, validity (tenancy.invite_expiry_days) and
 * inviter are the server's unless a SuperUser sets them. The caller is stamped for the audit entry.
 */
export function beforeCreateRequest(e: core.RecordRequestEvent): void {
  stampActor(e);
  const n = collectionNames(currentConfig());
  const name = e.collection ? e.collection.name : "";
  const record = recordOf(e);
  if (name === n.invites && !e.hasSuperuserAuth()) {
    record.set("token", "");
    record.set("expiry", "");
    // Who invited is the caller, not what the body claims (only a SuperUser updates an invitation).
    record.set("invited_by", e.auth && e.auth.collection().name === n.users ? e.auth.id : "");
  }
  refuseNonBooleanFlag(e);
  const body = e.requestInfo().body as Record<string, unknown>;
  if (name !== n.organizations && name !== n.things && name !== n.bus_users) return;
  if (!("active" in body)) record.set("active", true);
}

/** A 400 for a bool field a JSON body sets to anything but a boolean (lib/body.ts). */
function refuseNonBooleanFlag(e: core.RecordRequestEvent): void {
  const sent = sentJsonBody(requestOfRecordEvent(e));
  const flags = fieldsOf(recordOf(e).collection()).filter((f) => f.type() === "bool").map((f) => f.getName());
  const flag = sent && nonBooleanFlag(flags, sent);
  if (flag) throw new BadRequestError(`${flag} must be true or false`);
}

/**
 * onRecord{Create,Update,Delete}Execute: the write itself, with the domains' effects and the audit and
 * activity entries, in one transaction.
 */
export function execute(e: core.RecordEvent, action: WriteAction): void {
  const config = currentConfig();
  const n = collectionNames(config);
  const record = recordOf(e);
  if (action === "delete" && record.collection().name === n.organizations) refusePlatformOrganizationDelete(record);
  const effects = combineEffects(
    // Feed entries are written by the journal inside the write it describes, its organization checked.
    isDerivedActivity(record) ? undefined : relationsExist(record, action),
    currentRoleEffects(n, record, action),
    thingEffects(n, record, action),
    busEffects(n, config, record, action),
    overlayEffects(n, config, record, action),
  );
  withApiErrors(() => journal(e, action, effects));
}

/**
 * onRecordAfterCreateSuccess / AfterUpdateSuccess (hookTags().published): what must follow the commit (an
 * account's publication, a bus user's pending revocations signed).
 */
export function afterCommit(e: core.RecordEvent): void {
  publishAfterCommit(e.app, collectionNames(currentConfig()), recordOf(e));
}

/** onRecordAfterCreateSuccess / AfterUpdateSuccess (hookTags().noticed): the devices concerned are told. */
export function afterNoticedCommit(e: core.RecordEvent): void {
  noticesAfterCommit(e.app, collectionNames(currentConfig()), recordOf(e));
}

/** onRecordAfterDeleteSuccess (hookTags().published): a deleted account withdrawn, a deleted user's revocation signed. */
export function afterDeleteCommit(e: core.RecordEvent): void {
  publishAfterDelete(e.app, collectionNames(currentConfig()), recordOf(e));
}
