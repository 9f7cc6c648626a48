// The overlay's side of record writes, inside each write's transaction (dispatched from hooks.ts execute()).
import type { PlatformConfig } from "../config/types";
import type { WriteAction, WriteEffects } from "../lib/effects";
import type { CollectionNames } from "../schema/names";
import { provisionCa } from "./ca";
import { prepareHost } from "./hosts";

export function overlayEffects(n: CollectionNames, config: PlatformConfig, record: core.Record, action: WriteAction): WriteEffects | undefined {
  if (record.collection().name === n.organizations && action !== "delete") {
    return { after: (tx) => void provisionCa(tx, n, config, record) };
  }
  if (record.collection().name === n.overlay_hosts && action !== "delete") {
    return { before: (tx) => prepareHost(tx, n, record, action) };
  }
  return undefined;
}
