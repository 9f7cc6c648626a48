// The pure part of the overlay's revocation list (spec 3.2 things.active item 4; docs/overlay.md
// "Deactivation"): overlay_ca.revoked_fingerprints as stored and the pki.blocklist derived from it. No I/O:
// overlay/hosts.ts appends to the list, overlay/current-blocklist.ts reads it into every config served.
//
// An entry is `[fingerprint, notAfter]` (the revoked certificate's expiry, unix seconds) or, as written
// before expiries were kept, a bare fingerprint (kept for good: its expiry is unknown). A dated entry leaves
// the blocklist once its certificate has expired (docs/overlay.md "Pruning"): nebula refuses an expired
// certificate by itself, so dropping it re-admits nothing.

/** Seconds past a certificate's notAfter before its entry is dropped: peers' clocks may run a little behind. */
export const EXPIRY_MARGIN_SECONDS = 60;

/** A revoked certificate: its fingerprint (lowercased) and its notAfter in unix seconds, when known. */
export interface Revoked {
  fingerprint: string;
  notAfter?: number;
}

/** A blocklist: the non-empty fingerprints, lowercased, without duplicates, sorted (stable configs). */
export function blocklist(fingerprints: readonly unknown[], exclude = ""): string[] {
  const set = new Set<string>();
  for (const f of fingerprints) {
    if (typeof f !== "string") continue;
    const v = f.trim().toLowerCase();
    if (v && v !== exclude.trim().toLowerCase()) set.add(v);
  }
  return Array.from(set).sort();
}

/** A stored date ("2027-01-02 03:04:05.000Z", as PocketBase writes one) in unix seconds; undefined when blank or unreadable. */
export function notAfterSeconds(stored: string): number | undefined {
  const ms = Date.parse(stored.trim().replace(" ", "T"));
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : undefined;
}

/** One stored entry read leniently: anything but a fingerprint or a [fingerprint, seconds] pair is none. */
function entryOf(value: unknown): Revoked | undefined {
  const [raw, notAfter] = Array.isArray(value) ? value : [value, undefined];
  if (typeof raw !== "string" || !raw.trim()) return undefined;
  const fingerprint = raw.trim().toLowerCase();
  return typeof notAfter === "number" && Number.isFinite(notAfter) ? { fingerprint, notAfter } : { fingerprint };
}

/** An entry as stored: dated when its expiry is known. */
function storedEntry(entry: Revoked): unknown {
  return entry.notAfter === undefined ? entry.fingerprint : [entry.fingerprint, entry.notAfter];
}

/** overlay_ca.revoked_fingerprints as stored (a json array); anything else reads as none. */
export function revokedEntries(value: unknown): Revoked[] {
  if (!Array.isArray(value)) return [];
  const entries: Revoked[] = [];
  for (const item of value) {
    const entry = entryOf(item);
    if (entry) entries.push(entry);
  }
  return entries;
}

/** The stored JSON text of revoked_fingerprints read leniently: blank or malformed text is none. */
export function revokedEntriesFromJson(text: string): Revoked[] {
  if (!text.trim()) return [];
  try {
    return revokedEntries(JSON.parse(text));
  } catch {
    return [];
  }
}

/** Whether the entry's certificate expired more than the margin before `nowSeconds` (never, undated). */
function expired(entry: Revoked, nowSeconds: number): boolean {
  return entry.notAfter !== undefined && entry.notAfter + EXPIRY_MARGIN_SECONDS <= nowSeconds;
}

/** The blocklist served at `nowSeconds`, and when it next changes by time alone (unix seconds; Infinity: never). */
export interface CurrentBlocklist {
  fingerprints: string[];
  changesAt: number;
}

/** The entries still valid at `nowSeconds` as a blocklist (sorted, once each), with the next expiry among them. */
export function currentBlocklist(entries: readonly Revoked[], nowSeconds: number): CurrentBlocklist {
  let changesAt = Infinity;
  const kept: string[] = [];
  for (const entry of entries) {
    if (expired(entry, nowSeconds)) continue;
    kept.push(entry.fingerprint);
    if (entry.notAfter !== undefined) changesAt = Math.min(changesAt, entry.notAfter + EXPIRY_MARGIN_SECONDS);
  }
  return { fingerprints: blocklist(kept), changesAt };
}

/**
 * The stored list with `revoked` appended (blanks and fingerprints already present skipped) and the entries
 * expired at `nowSeconds` dropped, or undefined when nothing changes. Kept in revocation order, so a write
 * costs no sort: readers sort (currentBlocklist).
 */
export function appendRevoked(storedJson: string, revoked: readonly Revoked[], nowSeconds: number): unknown[] | undefined {
  let stored: unknown[] = [];
  try {
    const parsed: unknown = storedJson.trim() ? JSON.parse(storedJson) : [];
    if (Array.isArray(parsed)) stored = parsed;
  } catch {
    // Unreadable text reads as none (revokedEntriesFromJson), and the first revocation replaces it.
  }
  const present = new Set<string>();
  const next: unknown[] = [];
  let dropped = false;
  for (const item of stored) {
    const entry = entryOf(item);
    if (entry && expired(entry, nowSeconds)) {
      dropped = true;
      continue;
    }
    if (entry) present.add(entry.fingerprint);
    next.push(item);
  }
  let added = false;
  for (const candidate of revoked) {
    const entry = entryOf(candidate.notAfter === undefined ? candidate.fingerprint : [candidate.fingerprint, candidate.notAfter]);
    // A certificate already expired is refused by nebula anyway; keeping it would only grow the list.
    if (!entry || present.has(entry.fingerprint) || expired(entry, nowSeconds)) continue;
    present.add(entry.fingerprint);
    next.push(storedEntry(entry));
    added = true;
  }
  return added || dropped ? next : undefined;
}

/**
 * The stored list with each bare fingerprint dated where `notAfterOf` knows its certificate's expiry (the
 * host row that holds it) and expired entries dropped; undefined when nothing changes (migration 1764000016).
 */
export function datedRevocations(storedJson: string, notAfterOf: (fingerprint: string) => number | undefined, nowSeconds: number): unknown[] | undefined {
  const stored = revokedEntriesFromJson(storedJson);
  let changed = false;
  const dated = stored.map((entry) => {
    if (entry.notAfter !== undefined) return entry;
    const notAfter = notAfterOf(entry.fingerprint);
    if (notAfter === undefined) return entry;
    changed = true;
    return { fingerprint: entry.fingerprint, notAfter };
  });
  const kept = dated.filter((entry) => !expired(entry, nowSeconds));
  return changed || kept.length !== dated.length ? kept.map(storedEntry) : undefined;
}
