// GET /api/me/identity: a Thing reads itself and the two identities linked to it (spec 5 rule 12, "a Thing
// sees only the bus user and overlay host assigned to it"). Spec 4.2 forbids a device read branch on the
// bus_* and overlay_* collections, so the agent's view is this route
// (docs/decisions/050-me-identity-route.md). A poll carries revisions only; key material comes only when
// the caller asks for it.
import { findRecord } from "../lib/collections";
import type { CollectionNames } from "../schema/names";
import { servedConfig } from "../overlay/current-blocklist";
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
