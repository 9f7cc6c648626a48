// bus.log_to_console and overlay.log_to_console: the hooks that print verbose-lines.ts's lines. Bound only
// while a flag is on, to after-success hooks, which PocketBase runs once the write has committed, so a
// rolled-back write is never logged.
import { currentConfig } from "../config/runtime";
import type { WriteAction } from "../lib/effects";
import { recordOf } from "../lib/events";
import { collectionNames } from "../schema/names";
import { publicationLine, VERBOSE_KINDS, verboseLine, type VerboseKind } from "./verbose-lines";

/** The collections whose committed writes are logged: the hooks' tags (none while both flags are off). */
export function verboseCollections(): string[] {
  const config = currentConfig();
  const n = collectionNames(config);
  const kinds: VerboseKind[] = [
    ...(config.bus.log_to_console ? VERBOSE_KINDS.bus : []),
    ...(config.overlay.log_to_console ? VERBOSE_KINDS.overlay : []),
  ];
  return kinds.map((kind) => n[kind]);
}

export function logCommittedWrite(e: core.RecordEvent, action: WriteAction): void {
  const record = recordOf(e);
  const n = collectionNames(currentConfig());
  const kind = [...VERBOSE_KINDS.bus, ...VERBOSE_KINDS.overlay].find((k) => n[k] === record.collection().name);
  if (kind) console.log(verboseLine(kind, action, (field) => record.getString(field)));
}

/** After an account claim's publication (bus/publish.ts), while bus.log_to_console is on. */
export function logPublication(account: core.Record, ok: boolean, message: string): void {
  if (!currentConfig().bus.log_to_console) return;
  console.log(publicationLine(account.getString("public_key"), account.getBool("active"), ok, message));
}
