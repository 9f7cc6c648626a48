/// <reference path="../build/types/types.d.ts" />
// bus_accounts.jwt holds a claim as long as the bus takes (1 MiB, pb_hooks_src/bus/claims.ts) instead of
// 100,000 characters, which ~1,070 revocation entries passed: a write past that failed validation with
// no word of why. The schema itself lives in pb_hooks_src/schema.
migrate(
  (app) => require(`${__hooks}/lib/platform.js`).schema.upgrade(app),
  // A wider field holds what the narrower one did: nothing to undo.
  () => {},
);
