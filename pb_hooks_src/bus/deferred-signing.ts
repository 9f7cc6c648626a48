// When a revocation's claim is signed after its write instead of inside it (docs/bus.md "Deferred
// signing"). Signing and pushing an account claim costs in proportion to its revocation list (the hub parses
// all of it), and so does every write of the account's row, which holds the claim and the list: a few
// hundred KB at 5,000 entries. So a revocation on an account whose claim is already large is committed on
// its own, as a pending entry (pending-revocations.ts), and the claim is signed and pushed right after,
// outside the caller's request. Small claims, every steady state that pruning keeps, are still signed and
// confirmed within the write. Pure.

/** The plain table of pending entries (pending-revocations.ts), named here for the small serving library too. */
export const PENDING_REVOCATIONS_TABLE = "_bus_pending_revocations";

/** From this claim length on, a revocation's claim is signed after its write (64 KiB, ~700 entries). */
export const DEFERRED_FROM_BYTES = 64 * 1024;

export function signedAfterWrite(claimLength: number): boolean {
  return claimLength >= DEFERRED_FROM_BYTES;
}

/**
 * SQL over a pending entry's `key` and `cutoff` columns: the bytes appending it adds to the list's compact
 * text, `,"<key>":<cutoff>` (SQLite's LENGTH of an integer is that of its decimal text).
 */
export const ENTRY_BYTES_SQL = "LENGTH(key) + LENGTH(cutoff) + 4";

/**
 * At most the length the claim will have once signed with `pendingBytes` more list text than the
 * recorded one: the list is signed as compact JSON no longer than its stored text (signer.ts), each byte of
 * it 4/3 of a byte of base64, and the rounding of the one encoded segment is at most 3 more.
 */
export function predictedClaimLength(claimLength: number, pendingBytes: number): number {
  return claimLength + Math.ceil((pendingBytes * 4) / 3) + 3;
}
