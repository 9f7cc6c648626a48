// The sidecar's wire contract (v1), shared by the Node program (sidecar/) and the goja client
// (pb_hooks_src/lib/sidecar.ts). Types only: nothing here runs, so both sides may import it.

/** The one line of JSON the parent writes to the sidecar's stdin. */
export interface StartupLine {
  token: string;
  stateFile: string;
  /** Under `serve` only: the readiness prober's settings (docs/operations.md). */
  probe?: ProbeSettings;
}

/**
 * The readiness prober runs in the sidecar because goja has no timer: every intervalMs it asks PocketBase
 * (at url, with the sidecar's own token) to run each check, concurrently, and posts the snapshot back.
 */
export interface ProbeSettings {
  /** PocketBase's own listener, e.g. http://127.0.0.1:8090. */
  url: string;
  /** TLS only: the server name to present (PocketBase's certificate is issued for a domain, not loopback). */
  serverName?: string;
  checks: string[];
  intervalMs: number;
  timeoutMs: number;
  /**
   * A hub of several nodes: their URLs (without userinfo), watched so that a node back from an outage is
   * told to PocketBase at once (sidecar/node-watch.ts). Absent for one node.
   */
  busNodes?: string[];
  /** How often the credential upkeep runs (sidecar/upkeep.ts); absent: never (a test's sidecar). */
  upkeepIntervalMs?: number;
}

/** What the sidecar writes to the state file once listening, or instead when it cannot start. */
export type StateFile = { port: number; pid: number } | { error: string };

/** Every 4xx/5xx answer. The message never contains a secret of the request. */
export interface ErrorBody {
  error: string;
}

export type NkeyType = "operator" | "account" | "user" | "cluster" | "server";

export interface NkeysRequest {
  types: NkeyType[];
}
/** One per requested type, in order. */
export type NkeysResponse = { seed: string; public: string }[];

/** NATS JWT v2 claims; the sidecar sets iss, jti and (unless given) iat. */
export interface JwtClaims {
  sub: string;
  iat?: number;
  [claim: string]: unknown;
}
export interface JwtRequest {
  /** The issuer's nkey seed (S...). */
  seed: string;
  claims: JwtClaims;
}
export interface JwtResponse {
  jwt: string;
}

export interface PublicRequest {
  seed: string;
}
export interface PublicResponse {
  public: string;
}

export interface NatsRequest {
  servers: string[];
  /** A NATS creds file (user JWT and seed); omitted for a server without auth. */
  creds?: string;
  subject: string;
  payload: string;
  /** Bounds connecting and waiting for the reply; default 2000. */
  timeoutMs?: number;
}
export interface NatsResponse {
  reply: string;
}

/** /v1/nats/request-all: a NatsRequest plus, optionally, how many replies to wait for. */
export interface NatsRepliesResponse {
  /** Each reply's text, in arrival order. */
  replies: string[];
}

/** /v1/nats/publish: messages sent in order on one connection, then a flush (the server has them all). */
export interface NatsPublishRequest {
  servers: string[];
  creds?: string;
  messages: { subject: string; payload: string }[];
  timeoutMs?: number;
}
export interface NatsPublishResponse {
  published: number;
}

export interface NatsPingRequest {
  servers: string[];
  creds?: string;
  timeoutMs?: number;
}
export interface NatsPingResponse {
  ok: true;
  /** Round trip of the flush, milliseconds. */
  rttMs: number;
}

export interface X25519Request {
  count: number;
}
/** Raw 32-byte keys, base64. */
export type X25519Response = { private: string; public: string }[];

export interface Ed25519SignRequest {
  /** Raw 32-byte ed25519 seed, base64. */
  seed: string;
  /** base64 */
  message: string;
}
export interface Ed25519SignResponse {
  signature: string;
}

/** Raw 32-byte seed and public key, base64. */
export interface Ed25519KeypairResponse {
  seed: string;
  public: string;
}

export interface HealthResponse {
  ok: true;
  pid: number;
}

export interface BusInfoRequest {
  /** One bus URL (nats://, tls://, ...). */
  server: string;
  timeoutMs?: number;
}
/** From the INFO line a NATS server sends to every new connection, before any authentication. */
export interface BusInfoResponse {
  /** New at every start of the server. */
  serverId: string;
  /** server_name; "" when the server has none. */
  serverName: string;
  version: string;
  /** Whether persistence (JetStream) is enabled on that server. */
  jetstream: boolean;
}

/** /v1/bus/nodes: the INFO line of every node of a cluster, asked at once. */
export interface BusNodesRequest {
  servers: string[];
  timeoutMs?: number;
}
export interface BusNodesResponse {
  /** In the order asked; `server` without its userinfo. */
  nodes: Array<{ server: string; info?: BusInfoResponse; problem?: string }>;
}

/** /v1/lease/hold: hold the control plane's write lease in the bus (sidecar/lease.ts); replaces any held before. */
export interface LeaseHoldRequest {
  servers: string[];
  /** The lease user's creds file text. */
  creds: string;
  bucket: string;
  ttlMs: number;
  /** This control plane's name in the lease (its data directory's instance id and host). */
  holder: string;
  replicas: number;
}

/** What the sidecar reports to PocketBase after each attempt (POST LEASE_PATH). */
export interface LeaseReport {
  held: boolean;
  /** Epoch ms after which the holder no longer counts the lease as its own. */
  untilMs: number;
  /** Who holds it, as far as the sidecar knows ("" unknown). */
  holder: string;
  /** Why it is not held, or why the bus did not answer, in words. */
  detail: string;
}
