/// <reference path="../build/types/types.d.ts" />
// Change notices over the bus (issue 37): bus_users.notice_slot arrives with the schema, and every existing
// user gets a slot, recorded negative until the credential upkeep re-mints its credential to carry it
// (pb_hooks_src/bus/notices.ts). Accounts take the notices import at their next signing.
migrate(
  (app) => {
    const platform = require(`${__hooks}/lib/platform.js`);
    platform.schema.upgrade(app);
    platform.bus.assignNoticeSlots(app);
  },
  // The slots stay; a credential that carries its slot stays valid to older hooks.
  () => {},
);
