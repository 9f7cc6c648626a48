// Generated Thing codes: the type's prefix followed by hyphen-separated alphanumeric groups (spec 4.2).

/** Unambiguous upper-case alphanumerics (no 0/O, 1/I) so a code survives being read aloud. */
export const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
export const DEFAULT_PREFIX = "TH";
const GROUPS = 2;
const GROUP_LENGTH = 4;

/** `random(n)` returns n characters drawn from CODE_ALPHABET. */
export function generateThingCode(prefix: string, random: (length: number) => string): string {
  const groups: string[] = [];
  for (let i = 0; i < GROUPS; i++) groups.push(random(GROUP_LENGTH));
  return [prefix || DEFAULT_PREFIX, ...groups].join("-");
}

/** Whether `code` is a generated code under `prefix` (the type's, or the default one when it has none). */
export function isCodeUnder(code: string, prefix: string): boolean {
  const parts = code.split("-");
  return parts.length > GROUPS && parts.slice(0, -GROUPS).join("-") === (prefix || DEFAULT_PREFIX);
}

/** The generated sign-in e-mail of a Thing: `<thing code>@<organization code>.thing.local`. */
export function thingEmail(thingCode: string, organizationCode: string): string {
  return `${thingCode}@${organizationCode}.thing.local`;
}

/**
 * Whether a code is taken (inventory/things.ts codeTaken). `code != ''` repeats the condition of the
 * unique index (organization, code COLLATE NOCASE), so SQLite seeks that index; without it the check read
 * every Thing of the organization, twice per creation (docs/performance.md "Writes in a large tenant").
 */
export const codeTakenSql = (things: string): string =>
  `SELECT COUNT(*) AS taken FROM {{${things}}} WHERE organization = {:org} AND code = {:code} COLLATE NOCASE AND code != '' AND id != {:id}`;
