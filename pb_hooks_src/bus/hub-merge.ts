// What the hub already holds, merged back into a restored record store (issue 35 item 3, pure). After a
// restore or a promotion, the records may predate claims the hub took: a revocation or a suspension
// written after the last replicated transaction. Publishing the record as it is would undo them, so when
// this control plane takes the write lease each account's hub claim is read first. Every revocation it
// carries stays (the later cutoff wins); its suspension stays when its claim is newer than the record's
// (a record changed since may be a reactivation). The next claim is issued after the hub's.

export interface RecordedAccount {
  revocations: Record<string, number>;
  active: boolean;
  /** Issue second of the claim the record holds. */
  issuedAt: number;
}

export interface HubAccount {
  revocations: Record<string, number>;
  /** A suspended claim admits no connection (its `conn` limit is 0). */
  suspended: boolean;
  issuedAt: number;
}

export interface HubMerge {
  /** The record's revocations with the hub's added: what the next claim must carry. */
  revocations: Record<string, number>;
  /** Keys whose entry came from the hub (or a later cutoff did). */
  adopted: string[];
  /** The hub holds a suspension the record does not, issued after the record's claim. */
  suspend: boolean;
  /** The hub's claim is newer than the record's: writes after the record's claim were lost. */
  newerAtHub: boolean;
}

export function mergeHubAccount(record: RecordedAccount, hub: HubAccount): HubMerge {
  const revocations = { ...record.revocations };
  const adopted: string[] = [];
  const newerAtHub = hub.issuedAt > record.issuedAt;
  // Every revocation the hub holds stays, even under a record changed since (the bus down at serve's
  // start, a write signed before the hub could be read). The only entries a record drops are pruned ones,
  // which refuse nothing that has not expired: one taken back is pruned again.
  for (const [key, cutoff] of Object.entries(hub.revocations)) {
    if ((revocations[key] ?? -1) < cutoff) {
      revocations[key] = cutoff;
      adopted.push(key);
    }
  }
  // A suspension only from a claim newer than the record's: a record changed after it may reactivate.
  return { revocations, adopted: adopted.sort(), suspend: newerAtHub && record.active && hub.suspended, newerAtHub };
}

/** The hub's state read from its claim's payload; undefined when it is not an account claim. */
export function hubAccountOf(payload: Record<string, unknown> | null): HubAccount | undefined {
  const nats = payload?.nats as { type?: unknown; revocations?: unknown; limits?: { conn?: unknown } } | undefined;
  if (!payload || nats?.type !== "account") return undefined;
  const revocations: Record<string, number> = {};
  if (typeof nats.revocations === "object" && nats.revocations !== null) {
    for (const [key, cutoff] of Object.entries(nats.revocations as Record<string, unknown>)) {
      if (typeof cutoff === "number") revocations[key] = cutoff;
    }
  }
  return { revocations, suspended: nats.limits?.conn === 0, issuedAt: typeof payload.iat === "number" ? payload.iat : 0 };
}
