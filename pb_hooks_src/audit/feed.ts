// Activity feed entries (pure): who did what to which inventory record, with no record values.
import type { WriteAction } from "./entries";

/** activity.label's maximum length (collections.ts). */
export const LABEL_MAX = 200;

/** One row of activity (its fields as collections.ts defines them; timestamp is an autodate). */
export interface ActivityEntry {
  organization: string;
  actor: string;
  action: WriteAction;
  record: string;
  resource_id: string;
  label: string;
}

/**
 * What the record was called at that moment: its name, else its code. A snapshot, so a later rename or
 * delete does not rewrite history. Cut by code points, never inside a surrogate pair.
 */
export function activityLabel(name: string, code: string): string {
  const label = name.trim() !== "" ? name.trim() : code.trim();
  const points = Array.from(label);
  return points.length <= LABEL_MAX ? label : points.slice(0, LABEL_MAX).join("");
}
