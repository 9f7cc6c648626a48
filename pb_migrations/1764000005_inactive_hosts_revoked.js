/// <reference path="../build/types/types.d.ts" />
// The served blocklist is the CA's revocation list since deactivation stopped rewriting every config
// (docs/overlay.md "Deactivation"); this puts the certificate of every host already inactive on that list.
migrate(
  (app) => {
    require(`${__hooks}/lib/platform.js`).overlayRevocations.backfill(app);
  },
  // Nothing to undo: a revocation is for good, and the list written is what the hosts' state already meant.
  () => {},
);
