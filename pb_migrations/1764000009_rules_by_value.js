/// <reference path="../build/types/types.d.ts" />
// Rules checked against records PocketBase already names by id (view, the auth manage rule, writes)
// compare the organization by value, so SQLite keeps the id index; list rules keep seeking the
// organization index (schema/rules.ts memberOf, memberListing). The schema itself lives in pb_hooks_src/schema.
migrate(
  (app) => require(`${__hooks}/lib/platform.js`).schema.upgrade(app),
  // The rules admit exactly the same callers either way; a rollback restores a backup taken before the
  // upgrade (docs/operations.md).
  () => {},
);
