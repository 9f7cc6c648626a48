// `CREATE INDEX` statements as text: what they name and index, and a list with some replaced. Pure, so the
// schema specs (and the console, which reads them) can use it outside goja.

/** The name a `CREATE [UNIQUE] INDEX [IF NOT EXISTS] name ON ...` statement gives its index. */
export function indexName(sql: string): string {
  const match = /^\s*CREATE\s+(?:UNIQUE\s+)?INDEX\s+(?:IF\s+NOT\s+EXISTS\s+)?[`"[]?([\w]+)/i.exec(sql);
  return match ? match[1] : "";
}

/** The first column a `CREATE INDEX ... ON table (column, ...)` statement indexes. */
export function leadingColumn(sql: string): string {
  const match = /\sON\s+\S+\s*\(\s*[`"[]?(\w+)/i.exec(sql);
  return match ? match[1] : "";
}

/** `current` with every statement of `wanted` in place of the one of the same name (added if none). */
export function withIndexes(current: readonly string[], wanted: readonly string[]): string[] {
  const names = new Set(wanted.map(indexName));
  return [...current.filter((sql) => !names.has(indexName(sql))), ...wanted];
}
