/// <reference path="../build/types/types.d.ts" />
// The platform schema: every collection of spec section 2 with the API rules of section 5. The
// definitions live in pb_hooks_src/schema (bundled into pb_hooks/lib/platform.js); collection names
// follow the configuration at the time this migration runs.
migrate(
  (app) => require(`${__hooks}/lib/platform.js`).schema.up(app),
  (app) => require(`${__hooks}/lib/platform.js`).schema.down(app),
);
