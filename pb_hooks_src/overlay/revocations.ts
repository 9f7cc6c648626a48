// The pure part of the overlay's revocation list (spec 3.2 things.active item 4; docs/overlay.md
// "Deactivation"): overlay_ca.revoked_fingerprints as stored and the pki.blocklist derived from it. No I/O:
// overlay/hosts.ts writes the list, overlay/current-blocklist.ts reads it into every config served.

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

/** The list with `fingerprints` added (the same array when every one is blank or already present). */
export function withRevoked(list: readonly string[], ...fingerprints: string[]): readonly string[] {
  const fresh = fingerprints.map((f) => f.trim().toLowerCase()).filter((f) => f && !list.includes(f));
  return fresh.length === 0 ? list : blocklist([...list, ...fresh]);
}
