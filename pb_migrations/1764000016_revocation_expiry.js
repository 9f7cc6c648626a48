/// <reference path="../build/types/types.d.ts" />
// overlay_ca.revoked_fingerprints keeps each revoked certificate's expiry, and an entry leaves the served
// blocklist once it has passed (docs/overlay.md "Pruning"). Entries stored before are bare fingerprints:
// this dates those a host row still holds, and drops those already expired.
migrate(
  (app) => {
    require(`${__hooks}/lib/platform.js`).overlayRevocations.dateEntries(app);
  },
  // Bare entries are still read (kept for good), and a dropped one named an expired certificate, which
  // nebula refuses by itself: nothing to undo.
  () => {},
);
