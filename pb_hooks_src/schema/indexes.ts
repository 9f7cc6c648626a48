// A collection's index statements as a plain array, and back. Go slices are array-like in goja, not
// iterable, so they are indexed; the JSONArray field takes a JS array through the goja bridge.

export function indexesOf(collection: core.Collection): string[] {
  const list: string[] = [];
  for (let i = 0; i < collection.indexes.length; i++) list.push(collection.indexes[i]);
  return list;
}

export function setIndexes(collection: core.Collection, indexes: readonly string[]): void {
  collection.indexes = [...indexes] as unknown as typeof collection.indexes;
}

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
