// The v1 endpoints: each reads its fields, does one thing, and returns the JSON answer. Types of the
// answers are the wire contract in protocol.ts.
import { busInfo, busNodes } from "./bus-info";
import { ed25519Public, ed25519Sign, newSeed, x25519Public } from "./ed25519";
import { HttpError } from "./errors";
import { encodeJwt } from "./jwt";
import type { BusTarget, NatsPool } from "./nats";
import { NKEY_ROLES, decodeSeed, encodePublic, encodeSeed } from "./nkeys";
import { parseCreds } from "./creds";
import type {
  BusInfoResponse,
  BusNodesResponse,
  Ed25519KeypairResponse,
  Ed25519SignResponse,
  HealthResponse,
  LeaseHoldRequest,
  JwtResponse,
  NatsPingResponse,
  NatsPublishResponse,
  NatsRepliesResponse,
  NatsResponse,
  NkeysResponse,
  NkeyType,
  PublicResponse,
  X25519Response,
} from "../common/sidecar/protocol";
import {
  base64Field,
  integerField,
  objectArrayField,
  objectField,
  optionalStringField,
  stringArrayField,
  stringField,
  textField,
  type Body,
} from "./validate";

export type Method = "GET" | "POST";
export type Handler = (body: Body) => unknown;
export type Route = { method: Method; handle: Handler };
export type Routes = ReadonlyMap<string, Route>;

export interface RouteDeps {
  nats: NatsPool;
  /** Holds the write lease (sidecar/lease.ts); absent outside serve, where nothing could hear its reports. */
  holdLease?: (request: LeaseHoldRequest) => void;
  /** Lets the lease go at once (serve's stop, after Litestream's last upload). */
  releaseLease?: () => Promise<void>;
  /** Has an account's claim signed after its write (sidecar/deferred-claims.ts); absent outside serve. */
  signClaimLater?: (account: string) => void;
  /** Unix seconds; a parameter so tests can pin iat. */
  nowSeconds: () => number;
}

// Bounds that keep one request small: no caller needs more per call.
const MAX_KEYS_PER_CALL = 100;
const MAX_SERVERS = 16;
/** A notice batch (the credential upkeep renews at most 200 users a pass), with headroom. */
const MAX_MESSAGES_PER_PUBLISH = 10_000;
const DEFAULT_BUS_TIMEOUT_MS = 2_000;
const MAX_BUS_TIMEOUT_MS = 30_000;

const base64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64");

function nkeys(body: Body): NkeysResponse {
  const types = stringArrayField(body, "types", MAX_KEYS_PER_CALL);
  if (!types.every((t) => (NKEY_ROLES as readonly string[]).includes(t))) {
    throw new HttpError(400, `types: each must be one of ${NKEY_ROLES.join(", ")}`);
  }
  return (types as NkeyType[]).map((role) => {
    const seed = newSeed();
    return { seed: encodeSeed(role, seed), public: encodePublic(role, ed25519Public(seed)) };
  });
}

function busTarget(body: Body): BusTarget {
  return { servers: stringArrayField(body, "servers", MAX_SERVERS), creds: optionalStringField(body, "creds") };
}

const busTimeout = (body: Body): number => integerField(body, "timeoutMs", 1, MAX_BUS_TIMEOUT_MS, DEFAULT_BUS_TIMEOUT_MS);

export function v1Routes(deps: RouteDeps): Routes {
  const post = (handle: Handler): Route => ({ method: "POST", handle });
  return new Map<string, Route>([
    ["/v1/health", { method: "GET", handle: (): HealthResponse => ({ ok: true, pid: process.pid }) }],
    ["/v1/nkeys", post(nkeys)],
    ["/v1/jwt", post((body): JwtResponse => ({ jwt: encodeJwt(stringField(body, "seed"), objectField(body, "claims"), deps.nowSeconds()) }))],
    [
      "/v1/public",
      post((body): PublicResponse => {
        const { role, seed } = decodeSeed(stringField(body, "seed"));
        return { public: encodePublic(role, ed25519Public(seed)) };
      }),
    ],
    [
      "/v1/nats/request",
      post(async (body): Promise<NatsResponse> => {
        const target = busTarget(body);
        const reply = await deps.nats.request(target, stringField(body, "subject"), textField(body, "payload"), busTimeout(body));
        return { reply };
      }),
    ],
    [
      "/v1/nats/request-all",
      post(async (body): Promise<NatsRepliesResponse> => {
        const count = body.count === undefined ? undefined : integerField(body, "count", 1, MAX_SERVERS);
        const waitMs = body.waitMs === undefined ? undefined : integerField(body, "waitMs", 1, MAX_BUS_TIMEOUT_MS);
        const replies = await deps.nats.requestAll(busTarget(body), stringField(body, "subject"), textField(body, "payload"), busTimeout(body), count, waitMs);
        return { replies };
      }),
    ],
    [
      "/v1/nats/publish",
      post(async (body): Promise<NatsPublishResponse> => {
        const messages = objectArrayField(body, "messages", MAX_MESSAGES_PER_PUBLISH, (entry) => ({ subject: stringField(entry, "subject"), payload: textField(entry, "payload") }));
        return { published: await deps.nats.publish(busTarget(body), messages, busTimeout(body)) };
      }),
    ],
    ["/v1/bus/info", post((body): Promise<BusInfoResponse> => busInfo(stringField(body, "server"), busTimeout(body)))],
    ["/v1/bus/nodes", post((body): Promise<BusNodesResponse> => busNodes(stringArrayField(body, "servers", MAX_SERVERS), busTimeout(body)))],
    [
      "/v1/lease/hold",
      post((body) => {
        if (!deps.holdLease) throw new HttpError(409, "the write lease is held only by the sidecar of serve");
        const request = {
          ...busTarget(body),
          creds: stringField(body, "creds"),
          bucket: stringField(body, "bucket"),
          ttlMs: integerField(body, "ttlMs", 3_000, 600_000),
          holder: stringField(body, "holder"),
          replicas: integerField(body, "replicas", 1, 5),
        };
        // Checked before the holder is replaced: a bad request leaves the lease as it is held.
        try {
          parseCreds(request.creds);
        } catch {
          throw new HttpError(400, "creds: not a creds file");
        }
        if (!/^[A-Za-z0-9_-]{1,64}$/.test(request.bucket)) throw new HttpError(400, "bucket: letters, digits, - or _");
        if (request.servers.length === 0 || !request.servers.every((url) => /^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(url))) throw new HttpError(400, "servers: bus URLs");
        deps.holdLease(request);
        return { ok: true };
      }),
    ],
    [
      "/v1/bus/sign-later",
      post((body) => {
        if (!deps.signClaimLater) throw new HttpError(409, "claims are signed after their write only by the sidecar of serve");
        const account = stringField(body, "account");
        if (!/^[a-z0-9]{1,64}$/.test(account)) throw new HttpError(400, "account: a record id");
        deps.signClaimLater(account);
        return { queued: true };
      }),
    ],
    [
      "/v1/lease/release",
      post(async () => {
        await deps.releaseLease?.();
        return { ok: true };
      }),
    ],
    ["/v1/nats/ping", post(async (body): Promise<NatsPingResponse> => ({ ok: true, rttMs: await deps.nats.ping(busTarget(body), busTimeout(body)) }))],
    [
      "/v1/x25519",
      post((body): X25519Response =>
        Array.from({ length: integerField(body, "count", 1, MAX_KEYS_PER_CALL, 1) }, () => {
          const privateKey = newSeed();
          return { private: base64(privateKey), public: base64(x25519Public(privateKey)) };
        }),
      ),
    ],
    [
      "/v1/ed25519/sign",
      post((body): Ed25519SignResponse => ({ signature: base64(ed25519Sign(base64Field(body, "seed", 32), base64Field(body, "message"))) })),
    ],
    [
      "/v1/ed25519/keypair",
      post((): Ed25519KeypairResponse => {
        const seed = newSeed();
        return { seed: base64(seed), public: base64(ed25519Public(seed)) };
      }),
    ],
  ]);
}
