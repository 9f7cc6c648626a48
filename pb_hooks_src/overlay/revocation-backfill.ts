/// <reference path="../../build/types/types.d.ts" />
// Migration 1764000005: since deactivation writes the CA's revocation list only (docs/overlay.md
// "Deactivation"), the blocklist served is that list. A host saved inactive before then was blocked by
// being inactive, not by the list, so its certificate would be served unblocked after the upgrade. This
// puts the current certificate of every inactive host on its organization's list, once (idempotent).
import { findAll } from "../lib/collections";
import type { CollectionNames } from "../schema/names";
import { appendRevoked } from "./revocations";

/** Returns how many CA rows changed. Writes the column directly: a migration runs no record hooks' effects. */
export function revokeInactiveHosts(app: CoreApp, n: CollectionNames): number {
  let changed = 0;
  for (const ca of findAll(app, n.overlay_ca, "organization != ''")) {
    const fingerprints = findAll(app, n.overlay_hosts, "organization = {:org} && active = false && fingerprint != ''", { org: ca.getString("organization") })
      .map((host) => host.getString("fingerprint"));
    const next = appendRevoked(toString(ca.get("revoked_fingerprints")), fingerprints);
    if (!next) continue;
    app
      .db()
      .newQuery(`UPDATE {{${n.overlay_ca}}} SET [[revoked_fingerprints]] = {:list} WHERE [[id]] = {:id}`)
      .bind({ list: JSON.stringify(next), id: ca.id })
      .execute();
    changed++;
  }
  return changed;
}
