// When two e-mail addresses name the same mailbox, as the platform compares them
// (docs/decisions/040-email-one-mailbox-one-user.md): ASCII letters compare case-insensitively, every other
// character byte-exact. Not String#toLowerCase: full Unicode case mapping folds look-alikes onto ASCII
// ("\u212Aate" → "kate", the KELVIN SIGN), and those are other mailboxes. This is also what SQLite's NOCASE
// collation does, which the unique index on users.email uses. Pure.

/** `text` with A-Z lowered and nothing else changed. */
export function asciiLowerCase(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/**
 * `text` without leading and trailing ASCII whitespace. Not String#trim, which also strips Unicode spaces
 * (U+00A0, U+FEFF, U+3000, ...): PocketBase accepts an address that begins or ends with one, and it is
 * another mailbox than the address without it.
 */
export function trimAsciiSpace(text: string): string {
  return text.replace(/^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g, "");
}

/** Whether two addresses name the same mailbox. */
export function sameMailbox(a: string, b: string): boolean {
  return asciiLowerCase(a) === asciiLowerCase(b);
}
