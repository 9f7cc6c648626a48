// The agent's connection to the hub (issue 10 item 4). The retry loop is ours, not the client library's:
// every attempt is a fresh `connect` with reconnect off, bounded end to end (`dialTimeoutMs`), and the
// wait between attempts is our back-off, so new creds replace the authenticator in the same process and
// every failure is classified one way. Nothing is kept per failed attempt: 43,200 of them leave the heap
// where it was (bench/agent-reconnect.bench.ts; nats.js issue 433 is the leak this guards against).
// New creds (`useCreds`): the connection with them is made before the old one is drained.
import { connect, credsAuthenticator, type NatsConnection } from "@nats-io/transport-node";
import type { Logger } from "../lib/log";
import { createBackoff, type BackoffSettings } from "./backoff";
import { classifyBusError, reasonOf, type BusFailure } from "./errors";

export type BusState =
  | { connected: true; server: string; since: number }
  | { connected: false; kind: BusFailure["kind"] | "no_creds" | "connecting" | "stopped"; reason: string; since: number };

export interface BusConnectionOptions {
  /** Client URLs (busServers()); tried in order on every attempt. */
  servers: string[];
  /** The connection name the hub shows (the Thing code). */
  name: string;
  logger: Logger;
  /** Called at once when the hub refuses the credential (platform sync then re-reads it). */
  onAuthError(failure: BusFailure): void;
  /** Bound of one attempt: TCP, INFO, CONNECT and the first PONG (the library's dial has none of its own). */
  dialTimeoutMs?: number;
  backoff?: BackoffSettings;
}

export interface BusConnection {
  /** Adopts creds text (nats creds file); a different text replaces the connection without the process exiting. */
  useCreds(creds: string): void;
  /** The open connection, if any; publishers skip a beat while there is none. */
  current(): NatsConnection | undefined;
  state(): BusState;
  /** Runs on every new connection (subscriptions live and die with their connection). */
  onConnected(listener: (nc: NatsConnection) => void): void;
  /** Runs when an open connection ends, with that connection, once state() says why. */
  onDisconnected(listener: (ended: NatsConnection) => void): void;
  /** Stops the loop and closes the connection. */
  stop(): Promise<void>;
}

const DEFAULT_DIAL_TIMEOUT_MS = 5_000;
export const PING_INTERVAL_MS = 10_000;
export const MAX_PINGS_OUT = 2;
/** A connection that lived this long was a success: the next outage starts the back-off afresh. */
const STABLE_MS = 30_000;
const DEFAULT_BACKOFF: BackoffSettings = { initialMs: 500, maxMs: 30_000 };

export function startBusConnection(options: BusConnectionOptions): BusConnection {
  const { logger } = options;
  const dialTimeoutMs = options.dialTimeoutMs ?? DEFAULT_DIAL_TIMEOUT_MS;
  const backoff = createBackoff(options.backoff ?? DEFAULT_BACKOFF);
  const listeners: Array<(nc: NatsConnection) => void> = [];
  const downListeners: Array<(ended: NatsConnection) => void> = [];
  let creds: string | undefined;
  let nc: NatsConnection | undefined;
  let stopped = false;
  let state: BusState = { connected: false, kind: "no_creds", reason: "no bus credentials yet", since: Date.now() };
  // New creds or stop() end a back-off wait or an open connection's watch. One waiter at a time, held in
  // one slot (not a promise every wait chains onto, which would grow over a long outage).
  let poked = false;
  let wake: (() => void) | undefined;
  const poke = () => {
    poked = true;
    wake?.();
  };
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      if (poked) return resolve();
      const timer = Number.isFinite(ms) ? setTimeout(done, ms) : undefined;
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });

  const setDown = (kind: Exclude<BusState, { connected: true }>["kind"], reason: string) => {
    if (state.connected || state.kind !== kind || state.reason !== reason) state = { connected: false, kind, reason, since: Date.now() };
  };

  const failed = (failure: BusFailure, during: "dial" | "connection") => {
    setDown(failure.kind, failure.reason);
    if (failure.kind === "authorization") {
      logger.warn("bus: the hub refused the credential", { reason: failure.reason, during });
      options.onAuthError(failure);
    } else {
      logger.debug("bus: not connected", { reason: failure.reason, during });
    }
  };

  async function loop(): Promise<void> {
    while (!stopped) {
      // Whatever a poke announced is read afresh below (creds, stopped).
      poked = false;
      const using = creds;
      if (using === undefined) {
        setDown("no_creds", "no bus credentials yet");
        await pause(Infinity);
        continue;
      }
      // Make before break: on new creds the open connection keeps serving (a cmd.rotate_creds reply
      // goes out on it) until the connection with the new creds is up.
      const previous = nc;
      let opened: NatsConnection;
      try {
        opened = await dial(options.servers, options.name, using, dialTimeoutMs);
      } catch (err) {
        retire(previous);
        // A refusal of creds already replaced says nothing about the new ones.
        if (creds === using) failed(classifyBusError(err), "dial");
        await pause(backoff.next());
        continue;
      }
      retire(previous);
      if (stopped || creds !== using) {
        await opened.close().catch(() => undefined);
        continue;
      }
      nc = opened;
      const connectedAt = Date.now();
      state = { connected: true, server: opened.getServer(), since: connectedAt };
      logger.info("bus: connected", { server: state.server });
      for (const listener of listeners) notify(listener, opened);
      const ended = await Promise.race([closedBecause(opened), pause(Infinity).then(() => undefined)]);
      // New creds or stop: the loop dials again (or ends) with this connection still open.
      if (ended === undefined) continue;
      nc = undefined;
      if (stopped) break;
      if (creds !== using) continue;
      // A connection the hub drops at once (a limit, a revocation) keeps the back-off growing.
      if (Date.now() - connectedAt >= STABLE_MS) backoff.reset();
      failed(ended, "connection");
      for (const listener of downListeners) notify(listener, opened);
      await pause(backoff.next());
    }
    retire(nc);
    nc = undefined;
    setDown("stopped", "the agent is stopping");
  }

  /** A listener that throws (the connection closed under it) must not end the loop. */
  function notify(listener: (nc: NatsConnection) => void, connection: NatsConnection): void {
    try {
      listener(connection);
    } catch (err) {
      logger.warn("bus: a connection listener failed", { reason: reasonOf(err) });
    }
  }

  /** Lets what was written on a replaced connection go out, then closes it. */
  function retire(connection: NatsConnection | undefined): void {
    if (!connection || connection.isClosed()) return;
    if (nc === connection) nc = undefined;
    void connection.drain().catch(() => connection.close().catch(() => undefined));
  }

  const running = loop();

  return {
    useCreds(next) {
      if (next === creds) return;
      creds = next;
      // Said at once, not when the loop wakes: a probe in between would report "no bus credentials yet".
      // A failure already seen stays the reason until the next attempt ends.
      if (!state.connected && state.kind === "no_creds") setDown("connecting", "first attempt in progress");
      backoff.reset();
      logger.info("bus: adopting new credentials");
      poke();
    },
    current: () => nc,
    state: () => state,
    onConnected(listener) {
      listeners.push(listener);
      if (nc) notify(listener, nc);
    },
    onDisconnected(listener) {
      downListeners.push(listener);
    },
    async stop() {
      stopped = true;
      poke();
      await running;
    },
  };
}

/** One attempt against each server in turn; the first that opens wins. */
async function dial(servers: string[], name: string, creds: string, timeoutMs: number): Promise<NatsConnection> {
  let last: unknown;
  for (const server of servers) {
    try {
      return await bounded(
        connect({
          servers: server,
          name,
          authenticator: credsAuthenticator(new TextEncoder().encode(creds)),
          reconnect: false,
          timeout: timeoutMs,
          // A hub that stops answering (frozen, or a link that drops packets silently) sends no close:
          // unanswered pings end the connection within (MAX_PINGS_OUT + 1) intervals, ~30 s, instead of the
          // client's default ~6 min, so the bus check fails and the loop redials.
          pingInterval: PING_INTERVAL_MS,
          maxPingOut: MAX_PINGS_OUT,
          // The agent never expects to be told to wait: a refused credential is handled by our loop.
          ignoreAuthErrorAbort: true,
        }),
        timeoutMs,
      );
    } catch (err) {
      last = err;
    }
  }
  throw last;
}

/**
 * The library races its own timer against the dial, but a socket still connecting when it fires lives on;
 * this bound also covers that, and closes a connection that opens after we gave up on it.
 */
function bounded(attempt: Promise<NatsConnection>, ms: number): Promise<NatsConnection> {
  return new Promise((resolve, reject) => {
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      reject(new Error(`dial timed out after ${ms} ms`));
    }, ms + 250);
    attempt.then(
      (opened) => {
        clearTimeout(timer);
        if (late) void opened.close().catch(() => undefined);
        else resolve(opened);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

/**
 * Why an open connection ended. The server's -ERR line (a revoked or expired credential) arrives as an
 * `error` status before the socket closes, and the close may report only the socket: the error wins.
 */
async function closedBecause(nc: NatsConnection): Promise<BusFailure> {
  let serverError: unknown;
  let stale = false;
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === "error") serverError = status.error;
      if (status.type === "staleConnection") stale = true;
    }
  })().catch(() => undefined);
  const closedWith = await nc.closed();
  // Closed by the client itself: the hub left MAX_PINGS_OUT pings unanswered (frozen, or the link drops packets).
  if (stale) return { kind: "timeout", reason: "the hub stopped answering pings" };
  if (serverError !== undefined) {
    const failure = classifyBusError(serverError);
    if (failure.kind === "authorization" || !closedWith) return failure;
  }
  return closedWith ? classifyBusError(closedWith) : { kind: "other", reason: "the hub closed the connection" };
}
