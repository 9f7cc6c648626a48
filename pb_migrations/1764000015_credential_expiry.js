/// <reference path="../build/types/types.d.ts" />
// Bus user credentials expire from now on (issue 36): bus_users.expires, the accounts' pruning fields and
// the operator's longest credential lifetime arrive with the schema. Every account that already has users
// holds credentials minted without an expiry, up to this second: its revocation entries are kept until
// the renewal has replaced them all and a wildcard cutoff refuses the old ones (pb_hooks_src/bus/expiry.ts).
migrate(
  (app) => {
    const platform = require(`${__hooks}/lib/platform.js`);
    platform.schema.upgrade(app);
    platform.bus.markUnexpiringCredentials(app);
  },
  // The new fields stay; credentials minted with an expiry remain valid to older hooks.
  () => {},
);
