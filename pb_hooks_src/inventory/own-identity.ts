// GET /api/me/identity: a Thing reads itself and the two identities linked to it (spec 5 rule 12, "a Thing
// sees only the bus user and overlay host assigned to it"). Spec 4.2 forbids a device read branch on the
// bus_* and overlay_* collections, so the agent's view is this route
// (docs/decisions/050-me-identity-route.md). A poll carries revisions only; key material comes only when
// the caller asks for it. A poll that names the current ownIdentityTag gets a 304 instead (routes.ts).
import { findRecord } from "../lib/collections";
import { sharedStore } from "../lib/app-store";
import { stampsOf, validatorTag } from "../lib/row-validator";
import type { CollectionNames } from "../schema/names";
import { servedConfig } from "../overlay/current-blocklist";
import { currentBlocklist, revokedEntriesFromJson } from "../overlay/revocations";
import type { KeyMaterial, LinkedIdentity, OwnIdentity } from "../../common/inventory/identity";

export function ownIdentity(app: CoreApp, n: CollectionNames, thing: core.Record, include: Set<KeyMaterial>): OwnIdentity {
  const user = findRecord(app, n.bus_users, thing.getString("bus_user"));
  const host = findRecord(app, n.overlay_hosts, thing.getString("overlay_host"));
  const creds = user ? user.getString("creds_file") : "";
  const config = host ? servedConfig(app, host) : "";
  return {
    thing: {
      id: thing.id,
      code: thing.getString("code"),
      email: thing.getString("email"),
      organization: thing.getString("organization"),
      active: thing.getBool("active"),
    },
    bus_user: user ? { ...linked(user, creds), ...asked("creds_file", creds, include) } : null,
    overlay_host: host ? { ...linked(host, config), ...asked("config_yaml", config, include) } : null,
  };
}

function linked(record: core.Record, material: string): LinkedIdentity {
  return { id: record.id, active: record.getBool("active"), revision: $security.sha256(material) };
}

function asked<K extends KeyMaterial>(field: K, material: string, include: Set<KeyMaterial>): Partial<Record<K, string>> {
  return include.has(field) ? ({ [field]: material } as Partial<Record<K, string>>) : {};
}

/**
 * The validator of ownIdentity's answer: the Thing's row, its bus user's and overlay host's stamps, its
 * host's CA's stamp (the blocklist servedConfig adds is that row's list, without this host's own entry),
 * the moment that list next shrinks by an expiry, and what the caller asked for. One query; no key
 * material read, hashed or rendered.
 */
export function ownIdentityTag(app: CoreApp, n: CollectionNames, thing: core.Record, include: Set<KeyMaterial>): string {
  const stamps = stampsOf(
    app,
    {
      user: `SELECT [[updated]] FROM {{${n.bus_users}}} WHERE [[id]] = {:user}`,
      host: `SELECT [[updated]] FROM {{${n.overlay_hosts}}} WHERE [[id]] = {:host}`,
      caOrganization: `SELECT h.[[organization]] FROM {{${n.overlay_hosts}}} h WHERE h.[[id]] = {:host}`,
      ca: `SELECT ca.[[updated]] FROM {{${n.overlay_ca}}} ca JOIN {{${n.overlay_hosts}}} h ON ca.[[organization]] = h.[[organization]] WHERE h.[[id]] = {:host} LIMIT 1`,
    },
    { user: thing.getString("bus_user"), host: thing.getString("overlay_host") },
  );
  const blocklistChangesAt = stamps.ca ? nextBlocklistChange(app, n, stamps.caOrganization, stamps.ca) : "";
  const asked = [...include].sort().join(",");
  return validatorTag("identity", [thing.id, thing.getString("updated"), asked, stamps.user, stamps.host, stamps.ca, blocklistChangesAt]);
}

const BLOCKLIST_CHANGE_KEY_PREFIX = "platform.identity.blocklist-change.";

interface BlocklistChange {
  caUpdated: string;
  /** Unix seconds at which the next entry expires and the served list shrinks; Infinity when none does. */
  changesAt: number;
}

/**
 * When the organization's served blocklist next changes without a write (an entry's certificate expires),
 * as text. Worked out from the list once per stamp of the CA row and expiry, shared by every VM; so the
 * value a poll sees moves exactly when the rendered list would.
 */
function nextBlocklistChange(app: CoreApp, n: CollectionNames, organizationId: string, caUpdated: string): string {
  const key = BLOCKLIST_CHANGE_KEY_PREFIX + organizationId;
  const nowSeconds = Math.floor(Date.now() / 1000);
  const cached = sharedStore().get(key) as BlocklistChange | undefined;
  if (cached && cached.caUpdated === caUpdated && nowSeconds < cached.changesAt) return String(cached.changesAt);
  const { revoked } = stampsOf(
    app,
    { revoked: `SELECT [[revoked_fingerprints]] FROM {{${n.overlay_ca}}} WHERE [[organization]] = {:org} LIMIT 1` },
    { org: organizationId },
  );
  const change: BlocklistChange = { caUpdated, changesAt: currentBlocklist(revokedEntriesFromJson(revoked), nowSeconds).changesAt };
  sharedStore().set(key, change);
  return String(change.changesAt);
}
