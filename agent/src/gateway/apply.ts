// Applies a leaf config served by the platform to the files of the leaf. The first time (or after
// `agent gateway reconfigure` removed applied.json) everything is written from it. Afterwards only what a
// running leaf can take is applied: the creds file (read at the uplink's next connect) and the preload of
// account tokens (then a reload); a changed hub identity (PINNED_FIELDS) is reported, never applied.
import { existsSync } from "node:fs";
import { readIfPresent, writeFileAtomic } from "../lib/files";
import type { LeafConfig } from "../../../common/bus/leaf-config";
import { pinnedChanges, pinnedOf, renderLeafConfig, renderPreload, type LeafPlaces, type Pinned } from "./leaf-files";

export interface Applied {
  /** Everything was written anew: the leaf must be (re)started. */
  configured: boolean;
  /** The preload changed: the leaf must reload. */
  reload: boolean;
  credsChanged: boolean;
  /** Pinned fields the hub now serves differently (not applied). */
  drift: string[];
}

/** The fields the running leaf was configured from; undefined when it was never configured (or is to be again). */
export function readApplied(places: LeafPlaces): Pinned | undefined {
  const text = readIfPresent(places.files.applied);
  if (text === undefined || !existsSync(places.files.config)) return undefined;
  try {
    return pinnedOf(JSON.parse(text) as Pinned);
  } catch {
    return undefined;
  }
}

export function applyLeafConfig(places: LeafPlaces, served: LeafConfig): Applied {
  const { files } = places;
  const applied = readApplied(places);
  const credsChanged = writeIfChanged(files.creds, served.creds);
  if (!applied) {
    const pinned = pinnedOf(served);
    writeIfChanged(files.preload, renderPreload(served));
    writeFileAtomic(files.config, renderLeafConfig(pinned, places));
    // Last: a crash before this line leaves the leaf "never configured", so the next pass writes it all again.
    writeFileAtomic(files.applied, `${JSON.stringify(pinned, null, 2)}\n`);
    return { configured: true, reload: false, credsChanged, drift: [] };
  }
  const drift = pinnedChanges(applied, served);
  // Tokens of other accounts than the ones the leaf is bound to would leave its uplink on a deleted account.
  const sameAccounts = served.account_pub === applied.account_pub && served.sys_account_pub === applied.sys_account_pub;
  const reload = sameAccounts && writeIfChanged(files.preload, renderPreload(served));
  return { configured: false, reload, credsChanged, drift };
}

/** Writes (atomically, 0600) only when the text differs; answers whether it did. */
function writeIfChanged(path: string, text: string): boolean {
  if (readIfPresent(path) === text) return false;
  writeFileAtomic(path, text);
  return true;
}
