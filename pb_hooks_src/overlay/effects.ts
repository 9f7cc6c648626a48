// The overlay's side of record writes, inside each write's transaction (dispatched from hooks.ts execute()).
import type { PlatformConfig } from "../config/types";
import { activeTransition, deletedActiveThing, type ActiveTransition, type WriteAction, type WriteEffects } from "../lib/effects";
import type { CollectionNames } from "../schema/names";
import { provisionCa } from "./ca";
import { findRecord } from "../lib/collections";
import { prepareHost, revokeDeletedHost } from "./hosts";
import { withdrawalEffects } from "./rotation";

export function overlayEffects(n: CollectionNames, config: PlatformConfig, record: core.Record, action: WriteAction): WriteEffects | undefined {
  if (record.collection().name === n.organizations && action !== "delete") {
    return { after: (tx) => void provisionCa(tx, n, config, record) };
  }
  if (record.collection().name === n.overlay_hosts && action !== "delete") {
    // A change of `active` writes the CA's revocation list only: the other hosts' configs are served with
    // it (overlay/current-blocklist.ts), so no other host row is rewritten (docs/overlay.md "Deactivation").
    return { before: (tx, previous) => prepareHost(tx, n, record, action, previous) };
  }
  if (record.collection().name === n.overlay_hosts && action === "delete") {
    return { before: (tx, previous) => revokeDeletedHost(tx, n, previous ?? record) };
  }
  if (record.collection().name === n.overlay_ca && action === "update") return withdrawalEffects(record, n);
  if (record.collection().name === n.things && action === "update") {
    return { after: (tx, previous) => cascadeThingActive(tx, n, record, activeTransition(previous, record)) };
  }
  if (record.collection().name === n.things && action === "delete") {
    return { after: (tx, previous) => cascadeThingActive(tx, n, record, deletedActiveThing(tx, n, previous)) };
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
