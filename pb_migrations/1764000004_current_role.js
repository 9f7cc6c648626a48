/// <reference path="../build/types/types.d.ts" />
// Rules without a join on memberships (docs/performance.md "List pages"): adds users.current_role, the
// caller's role in its active organization kept by the server, backfills it for every user from the
// memberships as they stand (spec 9.2), points every org-scoped rule at it and widens the organization
// index to cover the page's count. The schema itself lives in pb_hooks_src/schema like the first one's.
migrate(
  (app) => require(`${__hooks}/lib/platform.js`).schema.upgrade(app),
  // Nothing to undo in place: the earlier rules joined memberships and are not kept in code; a rollback
  // restores a backup taken before the upgrade (docs/operations.md).
  () => {},
);
