/// <reference path="../build/types/types.d.ts" />
// Revocations on a large account claim are committed as pending entries and signed right after their
// write (issue 36 item 5; docs/bus.md "Deferred signing"): the table that holds them.
migrate(
  (app) => {
    require(`${__hooks}/lib/platform.js`).schema.upgrade(app);
  },
  // Older hooks never read the table: its entries join their lists first. The table stays, empty.
  (app) => {
    require(`${__hooks}/lib/platform.js`).bus.signPendingRevocations(app);
  },
);
