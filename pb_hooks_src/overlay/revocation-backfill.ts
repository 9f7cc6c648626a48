/// <reference path="../../build/types/types.d.ts" />
// Migrations of the CA's revocation list (docs/overlay.md "Deactivation", "Pruning"). Both write the column
// directly: a migration runs no record hooks' effects. Both are idempotent.
import { findAll } from "../lib/collections";
import type { CollectionNames } from "../schema/names";
import { appendRevoked, datedRevocations, notAfterSeconds } from "./revocations";

/**
 * Migration 1764000005: since deactivation writes the CA's revocation list only, the blocklist served is
 * that list. A host saved inactive before then was blocked by being inactive, not by the list, so its
 * certificate would be served unblocked after the upgrade. This puts the current certificate of every
 * inactive host on its organization's list, once. Returns how many CA rows changed.
 */
export function revokeInactiveHosts(app: CoreApp, n: CollectionNames, now = new Date()): number {
  let changed = 0;
  for (const ca of findAll(app, n.overlay_ca, "organization != ''")) {
    const revoked = findAll(app, n.overlay_hosts, "organization = {:org} && active = false && fingerprint != ''", { org: ca.getString("organization") })
      .map((host) => ({ fingerprint: host.getString("fingerprint"), notAfter: notAfterSeconds(host.getString("not_after")) }));
    const next = appendRevoked(toString(ca.get("revoked_fingerprints")), revoked, Math.floor(now.getTime() / 1000));
    if (next) changed += writeList(app, n, ca.id, next);
  }
  return changed;
}

/**
 * Migration 1764000016: entries written before expiries were kept are bare fingerprints, never pruned. Each
 * one a host row of the organization still holds gets that certificate's not_after; expired entries go.
 * A fingerprint no row holds any more (a certificate replaced on reactivation) stays bare, kept for good.
 */
export function dateRevocations(app: CoreApp, n: CollectionNames, now = new Date()): number {
  let changed = 0;
  for (const ca of findAll(app, n.overlay_ca, "organization != ''")) {
    const expiries = new Map<string, number>();
    for (const host of findAll(app, n.overlay_hosts, "organization = {:org} && fingerprint != ''", { org: ca.getString("organization") })) {
      const notAfter = notAfterSeconds(host.getString("not_after"));
      if (notAfter !== undefined) expiries.set(host.getString("fingerprint").trim().toLowerCase(), notAfter);
    }
    const next = datedRevocations(toString(ca.get("revoked_fingerprints")), (fingerprint) => expiries.get(fingerprint), Math.floor(now.getTime() / 1000));
    if (next) changed += writeList(app, n, ca.id, next);
  }
  return changed;
}

function writeList(app: CoreApp, n: CollectionNames, caId: string, list: unknown[]): number {
  app
    .db()
    .newQuery(`UPDATE {{${n.overlay_ca}}} SET [[revoked_fingerprints]] = {:list} WHERE [[id]] = {:id}`)
    .bind({ list: JSON.stringify(list), id: caId })
    .execute();
  return 1;
}
