/// <reference path="../build/types/types.d.ts" />
// The console's audit log filters by actor, action and collection, newest first: adds an index for each,
// (field, created), so a filtered page seeks instead of scanning the log. The schema itself lives in
// pb_hooks_src/schema (audit/collections.ts).
migrate(
  (app) => require(`${__hooks}/lib/platform.js`).schema.upgrade(app),
  // Extra indexes change no answer; a rollback restores a backup taken before the upgrade (docs/operations.md).
  () => {},
);
