// NATS connections held for the hooks (goja has no TCP client). One connection per (servers, creds)
// pair, opened on first use and reused; it does not reconnect by itself: a connection that breaks is
// closed, dropped from the cache, and the next call opens a new one, so a bus that is down fails a call
// at once with a plain message instead of queueing it behind reconnect attempts. A call that finds its
// cached connection broken before this process noticed (the server left between two calls) is tried once
// more on a new connection, so its answer is about the bus as it is now.
import { createHash } from "node:crypto";
import {
  AuthorizationError,
  ClosedConnectionError,
  ConnectionError,
  PermissionViolationError,
  RequestError,
  TimeoutError,
  connect,
  type NatsConnection,
  type NodeConnectionOptions,
} from "@nats-io/transport-node";
import { credsSigner, parseCreds } from "./creds";
import { withoutCredentials } from "../common/url-text";
import { HttpError, redact } from "./errors";

export interface BusTarget {
  servers: string[];
  /** A creds file's text; omitted for a server without authentication. */
  creds?: string;
}

export type Connect = (options: NodeConnectionOptions) => Promise<NatsConnection>;

/** Without an expected count, the replies of a cluster's nodes are over once none came for this long. */
export const REPLIES_STALL_MS = 250;

/** A cache key that does not keep the creds text itself as a key. */
const keyOf = (target: BusTarget): string =>
  createHash("sha256")
    .update(JSON.stringify([target.servers, target.creds ?? ""]))
    .digest("hex");

export class NatsPool {
  private readonly connections = new Map<string, Promise<NatsConnection>>();

  constructor(private readonly dial: Connect = connect) {}

  /** Sends `payload` on `subject` and returns the reply's text; `timeoutMs` bounds connecting and waiting. */
  request(target: BusTarget, subject: string, payload: string, timeoutMs: number): Promise<string> {
    return this.onConnection(target, timeoutMs, subject, async (nc, msLeft) => (await nc.request(subject, payload, { timeout: msLeft })).string());
  }

  /**
   * Sends `payload` on `subject` and collects every reply: `count` of them, or, without a count, those
   * that arrive before a pause of REPLIES_STALL_MS; `timeoutMs` bounds connecting and waiting, `waitMs`
   * (when shorter) the wait for the replies alone. For the system API of a cluster, where every node
   * answers the same request.
   */
  requestAll(target: BusTarget, subject: string, payload: string, timeoutMs: number, count?: number, waitMs?: number): Promise<string[]> {
    return this.onConnection(target, timeoutMs, subject, async (nc, msLeft) => {
      const maxWait = Math.min(msLeft, waitMs ?? msLeft);
      const options = count === undefined ? { strategy: "stall" as const, stall: REPLIES_STALL_MS, maxWait } : { strategy: "count" as const, maxMessages: count, maxWait };
      const replies: string[] = [];
      try {
        for await (const msg of await nc.requestMany(subject, payload, options)) replies.push(msg.string());
      } catch (err) {
        // Fewer replies than counted by the deadline: those that came are the answer; none is a timeout.
        if (!(err instanceof TimeoutError) || replies.length === 0) throw err;
      }
      return replies;
    });
  }

  /** Publishes the messages in order and flushes, so the server has them all when this resolves. */
  publish(target: BusTarget, messages: readonly { subject: string; payload: string }[], timeoutMs: number): Promise<number> {
    return this.onConnection(target, timeoutMs, messages[0]?.subject, async (nc, msLeft) => {
      for (const { subject, payload } of messages) nc.publish(subject, payload);
      await withTimeout(nc.flush(), msLeft);
      return messages.length;
    });
  }

  /** Connects if needed and flushes: a round trip to the server. Returns its duration in ms. */
  ping(target: BusTarget, timeoutMs: number): Promise<number> {
    return this.onConnection(target, timeoutMs, undefined, async (nc, msLeft) => {
      const started = performance.now();
      await withTimeout(nc.flush(), msLeft);
      return performance.now() - started;
    });
  }

  async closeAll(): Promise<void> {
    const pending = [...this.connections.values()];
    this.connections.clear();
    await Promise.allSettled(pending.map(async (nc) => (await nc).close()));
  }

  /** Runs `operation` on the target's connection within `timeoutMs`; see the header for the one retry. */
  private async onConnection<T>(
    target: BusTarget,
    timeoutMs: number,
    subject: string | undefined,
    operation: (nc: NatsConnection, msLeft: number) => Promise<T>,
  ): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    const key = keyOf(target);
    const msLeft = () => Math.max(1, deadline - Date.now());
    for (let retried = false; ; retried = true) {
      const cached = this.connections.get(key);
      const opening = cached ?? this.open(key, target, msLeft());
      const nc = await opening;
      try {
        return await operation(nc, msLeft());
      } catch (err) {
        if (retried || !cached || !lostConnection(err)) throw failure(err, target, subject, timeoutMs);
        if (this.connections.get(key) === opening) this.connections.delete(key);
        void nc.close().catch(() => {});
      }
    }
  }

  private open(key: string, target: BusTarget, timeoutMs: number): Promise<NatsConnection> {
    const opening = this.dial({
      servers: target.servers,
      authenticator: target.creds === undefined ? undefined : credsSigner(parseCreds(target.creds)),
      name: "platform-sidecar",
      timeout: timeoutMs,
      reconnect: false,
    }).catch((err: unknown) => {
      throw failure(err, target, undefined, timeoutMs);
    });
    this.connections.set(key, opening);
    const forget = () => {
      if (this.connections.get(key) === opening) this.connections.delete(key);
    };
    opening.then((nc) => nc.closed().then(forget), forget);
    return opening;
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new TimeoutError()), ms)));
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

/**
 * Whether an operation failed because its connection went away, not because of what the bus answered:
 * a timeout, no responders and a refusal are answers, and trying again would only repeat them.
 */
function lostConnection(err: unknown): boolean {
  if (err instanceof TimeoutError || err instanceof AuthorizationError || err instanceof PermissionViolationError) return false;
  if (err instanceof RequestError) return !err.isNoResponders() && !(err.cause instanceof PermissionViolationError);
  return err instanceof ConnectionError || err instanceof ClosedConnectionError;
}

/** A plain message for a failed bus operation; library text is redacted, creds never appear. */
function failure(err: unknown, target: BusTarget, subject: string | undefined, timeoutMs: number): HttpError {
  const where = target.servers.map(withoutCredentials).join(", ");
  if (err instanceof TimeoutError) {
    return new HttpError(504, subject ? `the bus at ${where} did not answer on ${subject} within ${timeoutMs} ms` : `the bus at ${where} did not answer within ${timeoutMs} ms`);
  }
  if (err instanceof RequestError && err.isNoResponders()) return new HttpError(502, `nothing on the bus at ${where} answers on ${subject}`);
  // 403 sets a refusal of the credentials apart from a bus that cannot be reached (readiness's bus_trust).
  if (err instanceof AuthorizationError || (err instanceof Error && /authorization violation/i.test(err.message))) {
    return new HttpError(403, `the bus at ${where} refused the credentials: ${redact(err.message)}`);
  }
  if (err instanceof ConnectionError || err instanceof ClosedConnectionError) {
    return new HttpError(502, `the bus at ${where} could not be reached: ${redact(err.message)}`);
  }
  if (lostConnection(err)) return new HttpError(502, `the bus at ${where} closed the connection before answering${subject ? ` on ${subject}` : ""}`);
  const message = err instanceof Error ? redact(err.message) : "unknown error";
  return new HttpError(502, `the bus request to ${where} failed: ${message}`);
}
