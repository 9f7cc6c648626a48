/// <reference path="../build/types/types.d.ts" />
// The single hooks entry file: registrations only. PocketBase serializes every handler and runs it in a
// pooled VM where no name of this file exists, so each handler requires the library itself (the module is
// cached per VM). Record hooks fire for every writer: the API, SuperUsers, the admin UI, hooks and commands.
type Platform = typeof import("./platform");

(require(`${__hooks}/lib/platform.js`) as Platform).start();

onRecordValidate((e) => {
  (require(`${__hooks}/lib/platform.js`) as Platform).hooks.validate(e);
  e.next();
});

onRecordCreate((e) => {
  (require(`${__hooks}/lib/platform.js`) as Platform).hooks.beforeCreate(e);
  e.next();
});

onRecordUpdate((e) => {
  (require(`${__hooks}/lib/platform.js`) as Platform).hooks.beforeUpdate(e);
  e.next();
});

onRecordDelete((e) => {
  e.next();
  (require(`${__hooks}/lib/platform.js`) as Platform).hooks.afterDelete(e);
});

onRecordCreateRequest((e) => {
  (require(`${__hooks}/lib/platform.js`) as Platform).hooks.beforeCreateRequest(e);
  e.next();
});

// Added routes (spec 4.1).
routerAdd("GET", "/api/client-config", (e) => {
  (require(`${__hooks}/lib/platform.js`) as Platform).routes.clientConfig(e);
}, $apis.requireAuth("users"));

routerAdd("POST", "/api/org/invites/accept", (e) => {
  (require(`${__hooks}/lib/platform.js`) as Platform).routes.acceptInvite(e);
}, $apis.requireAuth());

routerAdd("POST", "/api/org/things", (e) => {
  (require(`${__hooks}/lib/platform.js`) as Platform).routes.createThing(e);
}, $apis.requireAuth("users"));

routerAdd("GET", "/branding/{path...}", (e) => {
  (require(`${__hooks}/lib/platform.js`) as Platform).routes.branding(e);
});
