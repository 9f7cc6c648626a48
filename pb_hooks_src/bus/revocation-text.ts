// An account's revocation list read and extended as the JSON text PocketBase stores, one entry at a time
// (issue 36 item 5): parsing and re-serializing the whole list cost each revocation time in proportion to
// its length (5,000 entries are ~330 KB). Keys are NATS user public keys (base32) or the wildcard `*`, so
// no key needs escaping in the text. Pure.
import { WILDCARD } from "./expiry";

const KEY = /^(?:U[A-Z2-7]{55}|\*)$/;

/** Where the key's cutoff starts in the text, and ends; undefined when the list has no entry for it. */
function cutoffSpan(text: string, key: string): { start: number; end: number } | undefined {
  // A plain search: goja's regular expressions cost ~1 ms per 100 KB scanned, its indexOf a fraction.
  const quoted = text.indexOf(`"${key}"`);
  if (quoted < 0) return undefined;
  const cutoff = CUTOFF.exec(text.slice(quoted + key.length + 2, quoted + key.length + 2 + MAX_CUTOFF_SPAN));
  if (!cutoff) return undefined;
  const start = quoted + key.length + 2 + cutoff[0].length - cutoff[1].length;
  return { start, end: start + cutoff[1].length };
}

/** What follows a key up to its cutoff's end: the colon, spaces either side, and at most 16 digits. */
const CUTOFF = /^\s*:\s*(\d{1,16})/;
const MAX_CUTOFF_SPAN = 64;

/** The key's cutoff in the list's text, 0 when it has none (or the text is not a list). */
export function cutoffIn(text: string, key: string): number {
  if (!KEY.test(key)) return 0;
  const span = cutoffSpan(text, key);
  return span ? Number(text.slice(span.start, span.end)) : 0;
}

/**
 * The list's text with `key` cut off at `cutoff`: its entry raised, or appended. Undefined when the list
 * already refuses the key that far (its own entry or the wildcard's), or when `key` is not a key.
 */
export function withRevocation(text: string, key: string, cutoff: number): string | undefined {
  if (!KEY.test(key) || !Number.isSafeInteger(cutoff) || cutoff < 0) return undefined;
  const trimmed = text.trim() === "" || text.trim() === "null" ? "{}" : text.trim();
  if (cutoffIn(trimmed, WILDCARD) >= cutoff) return undefined;
  const span = cutoffSpan(trimmed, key);
  if (span && Number(trimmed.slice(span.start, span.end)) >= cutoff) return undefined;
  if (span) return `${trimmed.slice(0, span.start)}${cutoff}${trimmed.slice(span.end)}`;
  const body = trimmed.slice(1, -1).trim();
  return `{${body}${body === "" ? "" : ","}"${key}":${cutoff}}`;
}
