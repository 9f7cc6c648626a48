/// <reference path="../build/types/types.d.ts" />
// A count of rows per organization for the large org-scoped collections, kept by triggers and counted
// afresh here, from which a tenant's unfiltered page takes its total (schema/row-counts.ts,
// tenancy/list-totals.ts). The schema itself lives in pb_hooks_src/schema.
migrate(
  (app) => require(`${__hooks}/lib/platform.js`).schema.upgrade(app),
  // The count changes no answer (PocketBase counts again once it is gone); a rollback restores a backup
  // taken before the upgrade (docs/operations.md).
  () => {},
);
