// An account's revocation list read and extended as the JSON text PocketBase stores, one entry at a time
// (issue 36 item 5): parsing and re-serializing the whole list cost each revocation time in proportion to
// its length (5,000 entries are ~330 KB). Keys are NATS user public keys (base32) or the wildcard `*`, so
// no key needs escaping in the text. Pure.
import { WILDCARD } from "./expiry";

const KEY = /^(?:U[A-Z2-7]{55}|\*)$/;

function entryPattern(key: string): RegExp {
  return new RegExp(`"${key === WILDCARD ? "\\*" : key}"\\s*:\\s*(\\d+)`);
}

/** The key's cutoff in the list's text, 0 when it has none (or the text is not a list). */
export function cutoffIn(text: string, key: string): number {
  if (!KEY.test(key)) return 0;
  const match = entryPattern(key).exec(text);
  return match ? Number(match[1]) : 0;
}

/**
 * The list's text with `key` cut off at `cutoff`: its entry raised, or appended. Undefined when the list
 * already refuses the key that far (its own entry or the wildcard's), or when `key` is not a key.
 */
export function withRevocation(text: string, key: string, cutoff: number): string | undefined {
  if (!KEY.test(key) || !Number.isSafeInteger(cutoff) || cutoff < 0) return undefined;
  const trimmed = text.trim() === "" || text.trim() === "null" ? "{}" : text.trim();
  if (Math.max(cutoffIn(trimmed, key), cutoffIn(trimmed, WILDCARD)) >= cutoff) return undefined;
  const pattern = entryPattern(key);
  if (pattern.test(trimmed)) return trimmed.replace(pattern, `"${key}":${cutoff}`);
  const body = trimmed.slice(1, -1).trim();
  return `{${body}${body === "" ? "" : ","}"${key}":${cutoff}}`;
}
