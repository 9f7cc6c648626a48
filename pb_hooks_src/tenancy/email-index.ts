// users.email unique up to ASCII letter case (mailbox.ts), for every writer and under concurrent sign-ups:
// a unique index with SQLite's NOCASE collation, which folds A-Z only. It replaces PocketBase's own
// case-sensitive unique index on email; PocketBase then also looks e-mail addresses up case-insensitively
// (sign-in, e-mail change requests), since it reads the collation of that index. Pure.

/** PocketBase's own unique index on email: one column, any quoting, optionally partial. */
const STOCK_EMAIL_INDEX = /^\s*CREATE\s+UNIQUE\s+INDEX\s+\S+\s+ON\s+\S+\s*\(\s*[`"[]?email[`"\]]?\s*\)/i;

export function caseInsensitiveEmailIndex(table: string): string {
  return `CREATE UNIQUE INDEX \`idx_${table}_email_nocase\` ON \`${table}\` (\`email\` COLLATE NOCASE) WHERE \`email\` != ''`;
}

/** `indexes` with the case-sensitive unique index on email replaced by the case-insensitive one. */
export function withCaseInsensitiveEmail(indexes: readonly string[], table: string): string[] {
  const wanted = caseInsensitiveEmailIndex(table);
  return [...indexes.filter((sql) => sql !== wanted && !STOCK_EMAIL_INDEX.test(sql)), wanted];
}

/** `indexes` without the case-insensitive one (PocketBase puts its own back when the collection is saved). */
export function withoutCaseInsensitiveEmail(indexes: readonly string[], table: string): string[] {
  const wanted = caseInsensitiveEmailIndex(table);
  return indexes.filter((sql) => sql !== wanted);
}

/**
 * Why the index cannot be created: groups of addresses that differ only in ASCII letter case (each
 * group one mailbox held by several users). Undefined without any.
 */
export function duplicateRefusal(table: string, groups: readonly (readonly string[])[]): string | undefined {
  if (groups.length === 0) return undefined;
  const listed = groups.map((group) => group.map((email) => JSON.stringify(email)).join(", ")).join("; ");
  return (
    `${table}.email must be unique up to letter case, but these users' addresses differ only in case: ${listed}. ` +
    `Nothing was changed. Give all but one user of each group another address (or delete them), then run ` +
    `\`migrate up\` again (docs/decisions/040-email-one-mailbox-one-user.md).`
  );
}
