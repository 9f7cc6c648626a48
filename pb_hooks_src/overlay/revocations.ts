// The pure part of the overlay's revocation list (spec 3.2 things.active item 4; docs/overlay.md
// "Deactivation"): overlay_ca.revoked_fingerprints as stored and the pki.blocklist derived from it. No I/O:
// overlay/hosts.ts appends to the list, overlay/current-blocklist.ts reads it into every config served.

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

/** overlay_ca.revoked_fingerprints as stored (json array of strings); anything else reads as none. */
export function revokedList(value: unknown): string[] {
  return Array.isArray(value) ? blocklist(value) : [];
}

/** The stored JSON text of revoked_fingerprints read leniently: blank or malformed text is none. */
export function revokedListFromJson(text: string): string[] {
  if (!text.trim()) return [];
  try {
    return revokedList(JSON.parse(text));
  } catch {
    return [];
  }
}

/**
 * The stored list with `fingerprints` appended (lowercased; blanks and those already present skipped), or
 * undefined when none is new. Kept in revocation order, so a write costs no sort: readers sort (blocklist).
 */
export function appendRevoked(storedJson: string, fingerprints: readonly string[]): unknown[] | undefined {
  let list: unknown[] = [];
  try {
    const parsed: unknown = storedJson.trim() ? JSON.parse(storedJson) : [];
    if (Array.isArray(parsed)) list = parsed;
  } catch {
    // Unreadable text reads as none (revokedListFromJson), and the first revocation replaces it.
  }
  const fresh = blocklist(fingerprints).filter((f) => !list.includes(f));
  return fresh.length === 0 ? undefined : [...list, ...fresh];
}
