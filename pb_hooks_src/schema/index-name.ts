// The name of an index from its CREATE INDEX statement, so that a migration can replace an index's
// definition under the same name (PocketBase refuses two indexes of one name).
const NAME = /^\s*CREATE\s+(?:UNIQUE\s+)?INDEX\s+(?:IF\s+NOT\s+EXISTS\s+)?[`"[]?(\w+)/i;

export function indexName(sql: string): string | undefined {
  return NAME.exec(sql)?.[1];
}
