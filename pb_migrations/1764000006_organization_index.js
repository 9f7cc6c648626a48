/// <reference path="../build/types/types.d.ts" />
// Org-scoped rules compare the organization as `>= && <=` and seek a plain (organization) index, in
// place of the COALESCE(organization, '') expression index under which the pinned SQLite answered a
// tenant's own `organization = "..."` filter with an empty list (docs/performance.md "List pages").
// Same index name, new definition; the schema itself lives in pb_hooks_src/schema.
migrate(
  (app) => require(`${__hooks}/lib/platform.js`).schema.upgrade(app),
  // The expression index gave wrong answers; a rollback restores a backup taken before the upgrade
  // (docs/operations.md).
  () => {},
);
