/// <reference path="../build/types/types.d.ts" />
// Indexes on (organization, field) for the sorts the console offers on the large org-scoped collections,
// so a tenant's sorted page reads its rows in order instead of sorting the whole organization
// (schema/common.ts organizationOrderIndexes). The schema itself lives in pb_hooks_src/schema.
migrate(
  (app) => require(`${__hooks}/lib/platform.js`).schema.upgrade(app),
  // Indexes change no answer, only how fast it comes; a rollback restores a backup taken before the
  // upgrade (docs/operations.md).
  () => {},
);
