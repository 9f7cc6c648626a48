// NATS connections held for the hooks (goja has no TCP client). One connection per (servers, creds)
// pair, opened on first use and reused; it does not reconnect by itself: a connection that breaks is
// closed, dropped from the cache, and the next call opens a new one, so a bus that is down fails a call
// at once with a plain message instead of queueing it behind reconnect attempts.
import { createHash } from "node:crypto";
import {
  AuthorizationError,
  ClosedConnectionError,
  ConnectionError,
  credsAuthenticator,
  RequestError,
  TimeoutError,
  connect,
  type NatsConnection,
  type NodeConnectionOptions,
} from "@nats-io/transport-node";
import { HttpError, redact } from "./errors";

export interface BusTarget {
  servers: string[];
  /** A creds file's text; omitted for a server without authentication. */
  creds?: string;
}

export type Connect = (options: NodeConnectionOptions) => Promise<NatsConnection>;

const encoder = new TextEncoder();

/** A cache key that does not keep the creds text itself as a key. */
const keyOf = (target: BusTarget): string =>
  createHash("sha256")
    .update(JSON.stringify([target.servers, target.creds ?? ""]))
    .digest("hex");

export class NatsPool {
  private readonly connections = new Map<string, Promise<NatsConnection>>();

  constructor(private readonly open: Connect = connect) {}

  /** Sends `payload` on `subject` and returns the reply's text; `timeoutMs` bounds connecting and waiting. */
  async request(target: BusTarget, subject: string, payload: string, timeoutMs: number): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    const nc = await this.connection(target, timeoutMs);
    try {
      const reply = await nc.request(subject, payload, { timeout: Math.max(1, deadline - Date.now()) });
      return reply.string();
    } catch (err) {
      throw failure(err, target, subject, timeoutMs);
    }
  }

  /** Connects if needed and flushes: a round trip to the server. Returns its duration in ms. */
  async ping(target: BusTarget, timeoutMs: number): Promise<number> {
    const nc = await this.connection(target, timeoutMs);
    const started = performance.now();
    try {
      await withTimeout(nc.flush(), timeoutMs);
    } catch (err) {
      throw failure(err, target, undefined, timeoutMs);
    }
    return performance.now() - started;
  }

  async closeAll(): Promise<void> {
    const pending = [...this.connections.values()];
    this.connections.clear();
    await Promise.allSettled(pending.map(async (nc) => (await nc).close()));
  }

  private connection(target: BusTarget, timeoutMs: number): Promise<NatsConnection> {
    const key = keyOf(target);
    const cached = this.connections.get(key);
    if (cached) return cached;
    const opening = this.open({
      servers: target.servers,
      authenticator: target.creds === undefined ? undefined : credsAuthenticator(encoder.encode(target.creds)),
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

/** A plain message for a failed bus operation; library text is redacted, creds never appear. */
function failure(err: unknown, target: BusTarget, subject: string | undefined, timeoutMs: number): HttpError {
  const where = target.servers.join(", ");
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
  const message = err instanceof Error ? redact(err.message) : "unknown error";
  return new HttpError(502, `the bus request to ${where} failed: ${message}`);
}
