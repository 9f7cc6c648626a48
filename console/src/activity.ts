// An activity entry in words, the same wherever the feed is shown (the Visualizer's recent list and the
// Activity screen). The feed covers only the five inventory collections (spec rule 14).

export interface ActivityEntry {
  actor: string;
  action: string;
  record: string;
  label: string;
  timestamp: string;
}

const NOUNS: Readonly<Record<string, string>> = {
  things: "Thing",
  locations: "Location",
  thing_types: "Thing Type",
  location_types: "Location Type",
  thing_type_operations: "Thing Type Operation",
};

const VERBS: Readonly<Record<string, string>> = { create: "created", update: "changed", delete: "deleted" };

/** A row as the lists ask for it (ACTIVITY_FIELDS). */
export type ActivityRow = ActivityEntry & { id: string };

/** Fields an activity list asks for: what the sentence needs, nothing more. */
export const ACTIVITY_FIELDS = "id,actor,action,record,label,timestamp";

/** An entry's timestamp as stored ("2026-11-24 10:00:00.000Z") as a date. */
export function timeOf(entry: ActivityEntry): Date {
  return new Date(entry.timestamp.replace(" ", "T"));
}

/**
 * "Alice created Thing “Thermostat”"; unknown collections or actions are named as stored. A user without a
 * profile name who keeps the address private is written `users:<id>`, shown as the Members screen shows it.
 */
export function describeActivity(entry: ActivityEntry): string {
  const unnamed = /^users:(\w+)$/.exec(entry.actor);
  const who = unnamed ? `Unnamed user ${unnamed[1]}` : entry.actor || "Someone";
  const verb = VERBS[entry.action] ?? entry.action;
  const what = NOUNS[entry.record] ?? entry.record;
  return entry.label ? `${who} ${verb} ${what} “${entry.label}”` : `${who} ${verb} a ${what}`;
}
