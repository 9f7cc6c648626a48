/// <reference path="../build/types/types.d.ts" />
// users.email unique up to ASCII letter case: a NOCASE unique index replaces PocketBase's case-sensitive
// one. Refused, changing nothing, while users hold addresses that differ only in case; the message names
// them (docs/decisions/040-email-one-mailbox-one-user.md). The logic lives in
// pb_hooks_src/tenancy/email-migration.ts.
migrate(
  (app) => require(`${__hooks}/lib/platform.js`).uniqueMailboxes.up(app),
  (app) => require(`${__hooks}/lib/platform.js`).uniqueMailboxes.down(app),
);
