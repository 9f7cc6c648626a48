/// <reference path="../build/types/types.d.ts" />
// The platform's records account on the operator row (bus_system_operator.records_*): the identity through
// which Litestream reaches the replica's bucket on the bus (pb_hooks_src/replication/identity.ts). The
// schema itself lives in pb_hooks_src/schema.
migrate(
  (app) => require(`${__hooks}/lib/platform.js`).schema.upgrade(app),
  // The fields are empty until replication into the bus first runs; an older release ignores them, and a
  // rollback restores a backup taken before the upgrade (docs/operations.md).
  () => {},
);
