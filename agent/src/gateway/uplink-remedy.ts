// What to do about an uplink that stays away while the hub's leaf port accepts connections (a leaf can
// stop reconnecting after a flaky link, nats-server issue 7615): after `absentMs` a reload, and if that
// brought nothing within `graceMs`, a restart. The absence is counted anew from a restart.

export type Remedy = "reload" | "restart";

export interface Absence {
  /** When the uplink was last seen gone (or the leaf last restarted while it was). */
  downSince: number;
  /** The reload made during this absence, if any. */
  reloadedAt?: number;
}

export function remedyDue(now: number, absence: Absence, absentMs: number, graceMs: number): Remedy | undefined {
  if (absence.reloadedAt === undefined) return now - absence.downSince >= absentMs ? "reload" : undefined;
  return now - absence.reloadedAt >= graceMs ? "restart" : undefined;
}

/** The grace after a reload: as long as the absence itself, at most a minute. */
export const graceAfterReload = (absentMs: number): number => Math.min(absentMs, 60_000);
