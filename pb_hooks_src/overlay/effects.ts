// The overlay's side of record writes, inside each write's transaction (dispatched from hooks.ts execute()).
import type { PlatformConfig } from "../config/types";
import { activeTransition, type ActiveTransition, type WriteAction, type WriteEffects } from "../lib/effects";
import type { CollectionNames } from "../schema/names";
import { provisionCa } from "./ca";
import { findRecord } from "../lib/collections";
import { prepareHost, refreshPeers } from "./hosts";

export function overlayEffects(n: CollectionNames, config: PlatformConfig, record: core.Record, action: WriteAction): WriteEffects | undefined {
  if (record.collection().name === n.organizations && action !== "delete") {
    return { after: (tx) => void provisionCa(tx, n, config, record) };
  }
  if (record.collection().name === n.overlay_hosts && action === "create") {
    return { before: (tx) => prepareHost(tx, n, record, action, undefined) };
  }
  if (record.collection().name === n.overlay_hosts && action === "update") {
    // A change of `active` puts the host's fingerprint on (or, with a new certificate, takes it off) every
    // other host's blocklist (spec 3.2): their configs are regenerated in the same transaction.
    return {
      before: (tx, previous) => prepareHost(tx, n, record, action, previous),
      after: (tx, previous) => activeTransition(previous, record) && refreshPeers(tx, n, record),
    };
  }
  if (record.collection().name === n.things && action === "update") {
    return { after: (tx, previous) => cascadeThingActive(tx, n, record, activeTransition(previous, record)) };
  }
  return undefined;
}

/** things.active cascades onto the linked overlay host (spec 3.2 item 4), like the bus's cascade. */
function cascadeThingActive(tx: CoreApp, n: CollectionNames, thing: core.Record, transition: ActiveTransition): void {
  if (!transition) return;
  const active = transition === "reactivated";
  const host = findRecord(tx, n.overlay_hosts, thing.getString("overlay_host"));
  if (!host || host.getBool("active") === active) return;
  host.set("active", active);
  tx.save(host);
}
