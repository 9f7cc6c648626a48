/// <reference path="../build/types/types.d.ts" />
// The single hooks entry file: registrations only. PocketBase serializes every handler and runs it in a
// pooled VM where no name of this file exists, so each handler requires the library itself (the module is
// cached per VM). Record hooks fire for every writer: the API, SuperUsers, the admin UI, hooks and commands.
// What runs here, at load, and in onBootstrap comes from the small lib/loader.js; handlers that run once
// PocketBase listens require the full lib/platform.js (docs/performance.md "Start and footprint").
type Loader = typeof import("./loader");
type Platform = typeof import("./platform");
type Serving = typeof import("./serving");

// The hot paths (every request's middleware, GET /api/ready, each record of a listed page) keep the small
// library in a global of their VM instead: a require call resolves its path again each time, ~7 µs and 1.3 kB
// of garbage in goja_nodejs, a tenth of a probe's cost (docs/performance.md "Readiness and metrics").
declare var platformServing: Serving | undefined;

const loader = require(`${__hooks}/lib/loader.js`) as Loader;
loader.start();

// replication.enabled under serve: Litestream stops with serve, after its last upload (replication/process.ts);
// bound first, so that the upload still finds the embedded bus.
if (loader.replicationWanted()) {
  onTerminate((e) => {
    (require(`${__hooks}/lib/platform.js`) as Platform).replication.stop(e.app);
    e.next();
  });
  // PocketBase's daily maintenance, less the checkpoint Litestream owns (replication/optimize-job.ts).
  cronAdd(loader.POCKETBASE_OPTIMIZE_JOB, loader.POCKETBASE_OPTIMIZE_SCHEDULE, () => {
    (require(`${__hooks}/lib/platform.js`) as Platform).replication.optimize($app);
  });
}

// `serve --bus`: the nats-server child stops with serve (bus/embedded.ts; onBootstrap below starts it).
if (loader.embeddedBusWanted()) {
  onTerminate((e) => {
    (require(`${__hooks}/lib/platform.js`) as Platform).busServer.stop(e.app);
    e.next();
  });
}

// Hooks that concern a few collections are bound to those only (hooks.ts#hookTags): a bound handler holds
// a pooled VM while the rest of the write runs inside it.
const tags = loader.hookTags();

onRecordValidate((e) => {
  (require(`${__hooks}/lib/platform.js`) as Platform).hooks.validate(e);
  e.next();
});

onRecordCreate((e) => {
  (require(`${__hooks}/lib/platform.js`) as Platform).hooks.beforeCreate(e);
  e.next();
}, ...tags.prepared);

onRecordDelete((e) => {
  e.next();
  (require(`${__hooks}/lib/platform.js`) as Platform).hooks.afterDelete(e);
}, ...tags.membershipDeletes);

// Audit log and activity feed (audit/). The request hooks stash the caller on the record (or,
// for collections, in the app store) for the Execute hooks, which write the entries in the write's own
// transaction; see docs/audit.md. The create request hook also sets the server's defaults.
onRecordCreateRequest((e) => {
  (require(`${__hooks}/lib/platform.js`) as Platform).hooks.beforeCreateRequest(e);
  e.next();
});

onRecordUpdateRequest((e) => {
  (require(`${__hooks}/lib/platform.js`) as Platform).hooks.beforeUpdateRequest(e);
  e.next();
});

onRecordDeleteRequest((e) => {
  (require(`${__hooks}/lib/platform.js`) as Platform).audit.stampActor(e);
  e.next();
});

// These call e.next() themselves, inside the transaction.
onRecordCreateExecute((e) => {
  (require(`${__hooks}/lib/platform.js`) as Platform).hooks.execute(e, "create");
});

onRecordUpdateExecute((e) => {
  (require(`${__hooks}/lib/platform.js`) as Platform).hooks.execute(e, "update");
});

onRecordDeleteExecute((e) => {
  (require(`${__hooks}/lib/platform.js`) as Platform).hooks.execute(e, "delete");
});

onRecordAuthRequest((e) => {
  (require(`${__hooks}/lib/platform.js`) as Platform).audit.auditAuth(e);
});

onCollectionCreateRequest((e) => {
  (require(`${__hooks}/lib/platform.js`) as Platform).audit.stampCollectionActor(e);
});

onCollectionUpdateRequest((e) => {
  (require(`${__hooks}/lib/platform.js`) as Platform).audit.stampCollectionActor(e);
});

onCollectionDeleteRequest((e) => {
  (require(`${__hooks}/lib/platform.js`) as Platform).audit.stampCollectionActor(e);
});

onCollectionCreateExecute((e) => {
  (require(`${__hooks}/lib/platform.js`) as Platform).audit.journalCollectionCreate(e);
});

onCollectionUpdateExecute((e) => {
  (require(`${__hooks}/lib/platform.js`) as Platform).audit.journalCollectionUpdate(e);
});

onCollectionDeleteExecute((e) => {
  (require(`${__hooks}/lib/platform.js`) as Platform).audit.journalCollectionDelete(e);
});

// Runs after the commit, so a rolled-back entry is never printed; tagged with the audit collection, and
// bound only when audit.log_to_console is on.
if (loader.mirrorsToConsole()) {
  onRecordAfterCreateSuccess((e) => {
    (require(`${__hooks}/lib/platform.js`) as Platform).audit.mirrorToConsole(e);
    e.next();
  }, loader.auditCollectionName());
}

// bus.log_to_console and overlay.log_to_console: a line per committed write of the credential records,
// bound only while a flag is on (audit/verbose.ts).
const verboseTags = loader.verboseCollections();
if (verboseTags.length > 0) {
  onRecordAfterCreateSuccess((e) => {
    (require(`${__hooks}/lib/platform.js`) as Platform).audit.logCommittedWrite(e, "create");
    e.next();
  }, ...verboseTags);
  onRecordAfterUpdateSuccess((e) => {
    (require(`${__hooks}/lib/platform.js`) as Platform).audit.logCommittedWrite(e, "update");
    e.next();
  }, ...verboseTags);
  onRecordAfterDeleteSuccess((e) => {
    (require(`${__hooks}/lib/platform.js`) as Platform).audit.logCommittedWrite(e, "delete");
    e.next();
  }, ...verboseTags);
}

cronAdd(
  loader.RETENTION_JOB,
  loader.retentionSchedule(),
  () => {
    (require(`${__hooks}/lib/platform.js`) as Platform).audit.sweepRetention();
  },
);

// Bus publication follows the commit of an account's change (its outcome is recorded on the account), and
// of a bus user's write that left a revocation pending (bus/pending-revocations.ts).
onRecordAfterCreateSuccess((e) => {
  e.next();
  (require(`${__hooks}/lib/platform.js`) as Platform).hooks.afterCommit(e);
}, ...tags.published);

onRecordAfterUpdateSuccess((e) => {
  e.next();
  (require(`${__hooks}/lib/platform.js`) as Platform).hooks.afterCommit(e);
}, ...tags.published);

onRecordAfterDeleteSuccess((e) => {
  e.next();
  (require(`${__hooks}/lib/platform.js`) as Platform).hooks.afterDeleteCommit(e);
}, ...tags.published);

// Change notices follow the commit of a write that changes what a device reads (bus/notices.ts).
onRecordAfterCreateSuccess((e) => {
  e.next();
  (require(`${__hooks}/lib/platform.js`) as Platform).hooks.afterNoticedCommit(e);
}, ...tags.noticed);

onRecordAfterUpdateSuccess((e) => {
  e.next();
  (require(`${__hooks}/lib/platform.js`) as Platform).hooks.afterNoticedCommit(e);
}, ...tags.noticed);

// Bus status on organizations and bus users. PocketBase runs a page's enrich hooks nested, one VM per
// record, so the handler is bound to those collections only and uses the small serving library
// (docs/performance.md "List pages").
onRecordEnrich((e) => {
  (globalThis.platformServing ??= require(`${__hooks}/lib/serving.js`) as Serving).withBusStatus(e);
  e.next();
}, ...tags.busStatus);

// Host configs are served with their CA's current blocklist (docs/overlay.md "Deactivation"): bound to the
// hosts collection only, from the small bundle, since PocketBase nests the enrich hooks of a page.
onRecordEnrich((e) => {
  (globalThis.platformServing ??= require(`${__hooks}/lib/serving.js`) as Serving).withCurrentBlocklist(e);
  e.next();
}, ...tags.hostConfigs);

// Under serve: the sidecar (and with --bus nats-server) is started before the first request needs it.
// Once PocketBase listens the sidecar calls /api/platform/started, where every account converges to its
// recorded state (and again every minute, below).
// A tenant's unfiltered page of a large org-scoped collection takes its total from the count kept per
// organization (tenancy/list-totals.ts; the global middleware below asks PocketBase to skip its own).
onRecordsListRequest((e) => {
  (globalThis.platformServing ??= require(`${__hooks}/lib/serving.js`) as Serving).withCountedTotal(e);
  e.next();
}, ...tags.countedLists);

onBootstrap((e) => {
  e.next();
  (require(`${__hooks}/lib/loader.js`) as Loader).startServing(e.app);
});

onTerminate((e) => {
  (require(`${__hooks}/lib/loader.js`) as Loader).stopSidecar();
  e.next();
});

cronAdd(
  loader.RECONCILE_JOB,
  loader.RECONCILE_SCHEDULE,
  () => {
    (require(`${__hooks}/lib/platform.js`) as Platform).reconcileJob($app);
  },
);

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

// The two routes every device polls (docs/decisions/088-polls-not-in-the-request-log.md): a successful
// poll, mostly a 304, writes no request log row; a refused one still does.
routerAdd("GET", "/api/me/leaf-config", (e) => {
  (require(`${__hooks}/lib/platform.js`) as Platform).bus.leafConfigRoute(e);
}, $apis.requireAuth("things"), $apis.skipSuccessActivityLog());

routerAdd("GET", "/api/me/identity", (e) => {
  (require(`${__hooks}/lib/platform.js`) as Platform).routes.ownIdentity(e);
}, $apis.requireAuth("things"), $apis.skipSuccessActivityLog());

routerAdd("POST", "/api/me/bus-creds/rotate", (e) => {
  (require(`${__hooks}/lib/platform.js`) as Platform).bus.rotateRoute(e);
}, $apis.requireAuth("users", "things"));

routerAdd("POST", "/api/org/bus-account/keys", (e) => {
  (require(`${__hooks}/lib/platform.js`) as Platform).bus.signingKeysRoute(e);
}, $apis.requireAuth("users"));

routerAdd("GET", "/api/org/overlay/cert-audit", (e) => {
  (require(`${__hooks}/lib/platform.js`) as Platform).routes.certAudit(e);
}, $apis.requireAuth("users"));

routerAdd("POST", "/api/org/overlay-ca/rotate", (e) => {
  (require(`${__hooks}/lib/platform.js`) as Platform).routes.rotateOverlayCa(e);
}, $apis.requireAuth("users"));

routerAdd("GET", "/branding/{path...}", (e) => {
  (require(`${__hooks}/lib/platform.js`) as Platform).routes.branding(e);
});

// Readiness (spec 4.3, docs/operations.md): GET /api/ready serves the last snapshot; the sidecar's prober
// announces itself once, then runs each check through the internal routes below (its token only; 404 for
// anyone else).
// Successful probe and scrape traffic stays out of the request log. GET /api/ready is answered by the
// global middleware (middleware.ts), in its VM; the route is what the router matches.
routerAdd("GET", "/api/ready", (e) => {
  (globalThis.platformServing ??= require(`${__hooks}/lib/serving.js`) as Serving).readyRoute(e);
}, $apis.skipSuccessActivityLog());

routerAdd("POST", "/api/platform/started", (e) => {
  (require(`${__hooks}/lib/platform.js`) as Platform).startedRoute(e);
}, $apis.skipSuccessActivityLog());

routerAdd("POST", "/api/platform/readiness/checks/{name}", (e) => {
  (require(`${__hooks}/lib/platform.js`) as Platform).readiness.checkRoute(e);
}, $apis.skipSuccessActivityLog());

routerAdd("POST", "/api/platform/readiness/snapshot", (e) => {
  (require(`${__hooks}/lib/platform.js`) as Platform).readiness.snapshotRoute(e);
}, $apis.skipSuccessActivityLog());

// The write lease's state, as the sidecar holding it reports it (replication/lease.ts).
routerAdd("POST", "/api/platform/lease", (e) => {
  (require(`${__hooks}/lib/platform.js`) as Platform).replication.leaseRoute(e);
}, $apis.skipSuccessActivityLog());

// A hub node back from an outage, as the sidecar's node watch sees it: the claims it missed are pushed.
routerAdd("POST", "/api/platform/bus/node-back", (e) => {
  (require(`${__hooks}/lib/platform.js`) as Platform).bus.nodeBackRoute(e);
}, $apis.skipSuccessActivityLog());

// A claim whose revocations were committed unsigned, signed and pushed once their write has answered.
routerAdd("POST", "/api/platform/bus/sign-claim", (e) => {
  (require(`${__hooks}/lib/platform.js`) as Platform).bus.signClaimRoute(e);
}, $apis.skipSuccessActivityLog());

// The credential upkeep on the sidecar's schedule: renewals before expiry, revocation entries pruned.
routerAdd("POST", "/api/platform/bus/upkeep", (e) => {
  (require(`${__hooks}/lib/platform.js`) as Platform).bus.upkeepRoute(e);
}, $apis.skipSuccessActivityLog());

cronAdd(
  loader.WATCHDOG_JOB,
  loader.WATCHDOG_SCHEDULE,
  () => {
    (require(`${__hooks}/lib/platform.js`) as Platform).readiness.watchProber();
  },
);

// One global middleware (middleware.ts), since each holds a hook VM for the whole request: the console's
// security headers (docs/console.md "Security headers") on its pages and assets, and, unless
// metrics.enabled is false, every request counted by route pattern (spec 4.3).
if (loader.metricsEnabled()) {
  routerUse((e) => {
    (globalThis.platformServing ??= require(`${__hooks}/lib/serving.js`) as Serving).serveCounted(e);
  });

  routerAdd("GET", "/metrics", (e) => {
    (require(`${__hooks}/lib/platform.js`) as Platform).metrics.route(e);
  }, $apis.skipSuccessActivityLog());
} else {
  routerUse((e) => {
    (globalThis.platformServing ??= require(`${__hooks}/lib/serving.js`) as Serving).serveUncounted(e);
  });

  // Not registered, yet not left to the console's index fallback either: a scraper gets a 404, not a page.
  routerAdd("GET", "/metrics", () => {
    throw new NotFoundError("GET /metrics is off (metrics.enabled is false)");
  });
}

// The console is served with index fallback (every unknown path answers its page, for its own routes); an
// unknown path under /api/ is an API client's mistake and answers PocketBase's JSON 404 instead. More specific
// patterns (every real API route) win over this one.
routerAdd("GET", "/api/{path...}", () => {
  throw new NotFoundError();
});
