/// <reference path="../build/types/types.d.ts" />
// Indexes for the lookups a write makes, so none reads a whole table: an index on every relation field,
// which PocketBase searches for the records that point at one being deleted (schema/common.ts
// referrerIndexes), and one of each network's lighthouses, which every host's save lists
// (overlay/lighthouses.ts). The schema itself lives in pb_hooks_src/schema.
migrate(
  (app) => require(`${__hooks}/lib/platform.js`).schema.upgrade(app),
  // Indexes change no answer, only how fast it comes; a rollback restores a backup taken before the
  // upgrade (docs/operations.md).
  () => {},
);
