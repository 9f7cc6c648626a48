// Platform sync: keeps the Thing's session and key material current. Every sync_interval, jittered (and
// at once on requestSync), it refreshes the token once it is its Thing's refresh age old (a day and a
// share of the next, spread.ts), reads GET /api/me/identity (revisions only, If-None-Match: a 304 means
// nothing moved), fetches the creds file / overlay config only when a revision moved, writes bus.creds and tells
// the listeners. Failures (platform unreachable, Thing deactivated or session lapsed, identity suspended)
// are logged and held in status() for the platform_sync check; re-checks back off up to 5 min and the
// loop never throws or exits.
import { doublingDelay } from "../lib/backoff";
import { readIfPresent } from "../lib/files";
import type { Logger } from "../lib/log";
import type { StatePaths } from "../state-paths";
import { PlatformError, type KeyMaterial, type OwnIdentity, type PlatformClient, type Rotated } from "./client";
import { keepMaterial, overlayConfigPath, revisionOf, revisionOnDisk } from "./material";
import { readSession, tokenExpiry, writeSession, type Session } from "./session";
import { jitteredDelay, refreshAgeOf } from "./spread";

/**
 * Spec 8.1: a Thing token lives 7 days; refreshed once it is a day old plus the Thing's share of the next
 * (spread.ts), so five days of outage are always survivable.
 */
export const TOKEN_LIFETIME_MS = 7 * 86_400_000;
export const REFRESH_AFTER_MS = 86_400_000;
/** Issue 10: at most 5 min between platform re-checks while failing. */
export const MAX_BACKOFF_MS = 5 * 60_000;
/** requestSync calls (a bus auth error each reconnect) closer than this share one sync. */
export const MIN_REQUEST_GAP_MS = 5_000;

/** unreachable: no answer; unauthorized: 401/403 (Thing deactivated, session lapsed); error: anything else. */
export type FailureKind = "unreachable" | "unauthorized" | "error";

export interface SyncStatus {
  /** Unix ms of the last sync that completed, undefined before the first. */
  lastSuccessAt?: number;
  startedAt: number;
  consecutiveFailures: number;
  lastFailure?: { kind: FailureKind; status: number; message: string; at: number };
  tokenExpiresAt: number;
  thingActive?: boolean;
  /** undefined: no bus identity linked. */
  busUserActive?: boolean;
  overlayHostActive?: boolean;
  platform: string;
  email: string;
}

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface PlatformSyncOptions {
  session: Session;
  paths: StatePaths;
  client: PlatformClient;
  intervalMs: number;
  logger: Logger;
  clock?: Clock;
  /** Source of the poll jitter, in [0, 1) (default Math.random). */
  random?: () => number;
}

export interface PlatformSync {
  /** Runs a sync at once and then every interval. */
  start(): void;
  stop(): void;
  /** A sync now (coalesced with one under way; spaced from the last by MIN_REQUEST_GAP_MS, not before a failing back-off ends). */
  requestSync(reason: string): Promise<void>;
  /**
   * A change notice from the platform (platform/notices.ts): a sync at once, not held to the gap between
   * requests; a notice during a pass queues one more after it, so a burst costs two passes.
   */
  noticed(reason: string): Promise<void>;
  /** cmd.rotate_creds: POST /api/me/bus-creds/rotate, then a sync that adopts the re-minted creds. */
  rotateBusCreds(): Promise<Rotated>;
  onBusCreds(listener: (creds: string) => void): () => void;
  /** A new overlay config; and, once after start, the one already on disk when the platform still serves it. */
  onOverlayConfig(listener: (yaml: string) => void): () => void;
  status(): SyncStatus;
}

export function startPlatformSync(options: PlatformSyncOptions): PlatformSync {
  const { paths, client, intervalMs, logger } = options;
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  let session = options.session;
  const busListeners = new Set<(creds: string) => void>();
  const overlayListeners = new Set<(yaml: string) => void>();
  const state: SyncStatus = {
    startedAt: clock.now(),
    consecutiveFailures: 0,
    tokenExpiresAt: session.token_expires,
    platform: session.platform,
    email: session.thing.email,
  };
  // What the agent holds: the files on disk at start, then what it adopted.
  let busRevision = revisionOnDisk(paths.busCreds);
  let overlayRevision = revisionOnDisk(overlayConfigPath(paths));
  // The validator of the last identity answer whose revisions the agent acted on; unset until one is.
  let identityTag: string | undefined;
  let refreshedAt: number | undefined;
  // Whether the overlay's listeners heard, since start, that the config they run is the platform's.
  let overlayConfirmed = false;
  let running: Promise<void> | undefined;
  let again: Promise<void> | undefined;
  let timer: unknown;
  let stopped = true;
  let lastStartAt = -Infinity;
  // A requested sync held back until the gap (or the back-off) has passed; every request meanwhile shares it.
  let deferred: { handle: unknown; promise: Promise<void>; resolve: () => void } | undefined;

  const schedule = (ms: number) => {
    if (stopped) return;
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = clock.setTimeout(() => {
      timer = undefined;
      void run("interval");
    }, ms);
  };

  const nextDelay = () => (state.consecutiveFailures === 0 ? jitteredDelay(intervalMs, random) : doublingDelay(intervalMs, state.consecutiveFailures, MAX_BACKOFF_MS));

  async function refreshIfDue(): Promise<void> {
    const now = clock.now();
    const age = TOKEN_LIFETIME_MS - (session.token_expires - now);
    if (refreshedAt !== undefined && age < refreshAgeOf(session.thing.id, REFRESH_AFTER_MS)) return;
    const auth = await client.authRefresh(session.token);
    session = { ...session, token: auth.token, token_expires: tokenExpiry(auth.token) };
    writeSession(paths.session, session);
    refreshedAt = now;
    state.tokenExpiresAt = session.token_expires;
  }

  function adopt(identity: OwnIdentity): void {
    const user = identity.bus_user;
    if (user?.creds_file !== undefined && user.revision !== busRevision) {
      keepMaterial(paths.busCreds, user.creds_file);
      busRevision = revisionOf(user.creds_file);
      logger.info("platform sync: new bus creds adopted", { bus_user: user.id });
      for (const listener of busListeners) listener(user.creds_file);
    }
    const host = identity.overlay_host;
    if (host?.config_yaml !== undefined && host.revision !== overlayRevision) {
      overlayRevision = revisionOf(host.config_yaml);
      logger.info("platform sync: new overlay config", { overlay_host: host.id });
      for (const listener of overlayListeners) listener(host.config_yaml);
    } else if (host && !overlayConfirmed) {
      // The config kept on disk is what the platform serves: say so once, so the overlay stops calling it cached.
      const kept = readIfPresent(overlayConfigPath(paths));
      if (kept !== undefined) for (const listener of overlayListeners) listener(kept);
    }
    overlayConfirmed = true;
  }

  function noteTransitions(identity: OwnIdentity): void {
    const report = (what: string, before: boolean | undefined, now: boolean | undefined, fields: Record<string, string>) => {
      if (now === false && before !== false) logger.warn(`platform sync: ${what} is suspended at the platform`, fields);
      if (now === true && before === false) logger.info(`platform sync: ${what} is active again`, fields);
    };
    report("the Thing", state.thingActive, identity.thing.active, { thing: identity.thing.code });
    report("the bus identity", state.busUserActive, identity.bus_user?.active, { bus_user: identity.bus_user?.id ?? "" });
    report("the overlay host", state.overlayHostActive, identity.overlay_host?.active, { overlay_host: identity.overlay_host?.id ?? "" });
    state.thingActive = identity.thing.active;
    state.busUserActive = identity.bus_user?.active;
    state.overlayHostActive = identity.overlay_host?.active;
  }

  /**
   * `agent enroll` run again while the agent runs (after a deactivation, a new password) leaves a new session
   * on disk; the running agent takes it on its next pass instead of retrying the refused one until a restart.
   */
  function adoptNewEnrollment(): void {
    let onDisk: Session | undefined;
    try {
      onDisk = readSession(paths.session);
    } catch {
      return; // A damaged file is not an enrollment: keep the session held.
    }
    if (!onDisk || onDisk.token === session.token) return;
    session = onDisk;
    refreshedAt = clock.now();
    state.tokenExpiresAt = session.token_expires;
    logger.info("platform sync: new enrollment adopted", { thing: session.thing.code });
  }

  async function syncOnce(): Promise<void> {
    adoptNewEnrollment();
    await refreshIfDue();
    const answer = await client.pollIdentity(session.token, identityTag);
    if (!answer.changed) return; // 304: nothing moved since the answer acted on last
    const poll = answer.identity;
    const wanted: KeyMaterial[] = [];
    if (poll.bus_user && poll.bus_user.revision !== busRevision) wanted.push("creds_file");
    if (poll.overlay_host && poll.overlay_host.revision !== overlayRevision) wanted.push("config_yaml");
    const identity = wanted.length ? await client.identity(session.token, wanted) : poll;
    noteTransitions(identity);
    adopt(identity);
    identityTag = answer.etag;
  }

  function fail(err: unknown): void {
    const status = err instanceof PlatformError ? err.status : -1;
    const kind: FailureKind = status === 0 ? "unreachable" : status === 401 || status === 403 ? "unauthorized" : "error";
    const message = err instanceof Error ? err.message : String(err);
    state.consecutiveFailures++;
    state.lastFailure = { kind, status, message, at: clock.now() };
    const retryIn = nextDelay();
    logger.warn("platform sync failed", { kind, status, error: message, failures: state.consecutiveFailures, retry_in_ms: retryIn });
  }

  function run(reason: string): Promise<void> {
    if (running) {
      // One more pass after the current one covers every request made meanwhile.
      again ??= running.then(() => {
        again = undefined;
        return run(reason);
      });
      return again;
    }
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
    lastStartAt = clock.now();
    logger.debug("platform sync", { reason });
    running = syncOnce()
      .then(() => {
        if (state.consecutiveFailures > 0) logger.info("platform sync recovered", { after_failures: state.consecutiveFailures });
        state.consecutiveFailures = 0;
        state.lastFailure = undefined;
        state.lastSuccessAt = clock.now();
      }, fail)
      .finally(() => {
        running = undefined;
        schedule(nextDelay());
      });
    return running;
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      void run("start");
    },
    stop() {
      stopped = true;
      if (timer !== undefined) clock.clearTimeout(timer);
      timer = undefined;
      if (deferred) {
        clock.clearTimeout(deferred.handle);
        deferred.resolve();
        deferred = undefined;
      }
    },
    requestSync(reason) {
      const earliest = lastStartAt + (state.consecutiveFailures > 0 ? nextDelay() : MIN_REQUEST_GAP_MS);
      const wait = earliest - clock.now();
      if (running || wait <= 0) return run(reason);
      // Too soon after the last: one deferred pass at the earliest allowed time serves every such request.
      if (deferred) return deferred.promise;
      logger.debug("platform sync requested; deferred", { reason, in_ms: wait });
      let resolve = () => {};
      const promise = new Promise<void>((r) => (resolve = r));
      const handle = clock.setTimeout(() => {
        deferred = undefined;
        void run(reason).then(resolve);
      }, wait);
      deferred = { handle, promise, resolve };
      return promise;
    },
    noticed: (reason) => run(reason),
    async rotateBusCreds() {
      const rotated = await client.rotateBusCreds(session.token);
      await run("rotate_creds");
      return rotated;
    },
    onBusCreds(listener) {
      busListeners.add(listener);
      return () => busListeners.delete(listener);
    },
    onOverlayConfig(listener) {
      overlayListeners.add(listener);
      return () => overlayListeners.delete(listener);
    },
    status: () => ({ ...state, lastFailure: state.lastFailure && { ...state.lastFailure } }),
  };
}
