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
