// A small HTTP client of the control plane for one Thing: sign-in, token refresh, its own identities
// (GET /api/me/identity) and the rotation of its bus credential. Every request is bounded in time. An
// error carries the HTTP status (0: the platform did not answer) and PocketBase's message, never a body
// that could hold key material.
import type { KeyMaterial, OwnIdentity } from "../../../common/inventory/identity";
import { sendRequest, type HttpAnswer } from "../lib/http-request";

export type { KeyMaterial, OwnIdentity };

export class PlatformError extends Error {
  constructor(
    /** The HTTP status; 0 when the platform could not be reached or did not answer in time. */
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "PlatformError";
  }
}

export interface ThingRecord {
  id: string;
  code: string;
  email: string;
  organization: string;
  active: boolean;
}

export interface ThingAuth {
  token: string;
  record: ThingRecord;
}

export interface Rotated {
  rotated: true;
  bus_user: string;
}

/** A conditional identity poll: unchanged (304), or the revisions with the validator to send next time. */
export type IdentityPoll = { changed: false } | { changed: true; identity: OwnIdentity; etag: string | undefined };

export interface PlatformClient {
  readonly url: string;
  authWithPassword(email: string, password: string): Promise<ThingAuth>;
  authRefresh(token: string): Promise<ThingAuth>;
  identity(token: string, include?: readonly KeyMaterial[]): Promise<OwnIdentity>;
  /** GET /api/me/identity (revisions only) with If-None-Match `etag` when one is held. */
  pollIdentity(token: string, etag: string | undefined): Promise<IdentityPoll>;
  rotateBusCreds(token: string): Promise<Rotated>;
}

export interface ClientOptions {
  /** Bound of every request, connection included (default 10 s). */
  timeoutMs?: number;
}

const THINGS = "things";

/** One request's answer, whatever its status. */
export type PlatformAnswer = HttpAnswer;

export interface ExchangeOptions {
  token?: string;
  body?: object;
  headers?: Record<string, string>;
  timeoutMs: number;
}

/**
 * One request to the platform at `url` (normalized), bounded in time; PlatformError(0) when it does not
 * answer. A redirect is not followed: its 3xx is an error like any other status outside 2xx.
 */
export async function exchange(url: string, method: string, path: string, options: ExchangeOptions): Promise<PlatformAnswer> {
  const headers: Record<string, string> = { Accept: "application/json", ...options.headers };
  if (options.token) headers.Authorization = options.token;
  if (options.body) headers["Content-Type"] = "application/json";
  try {
    return await sendRequest(`${url}${path}`, { method, headers, body: options.body ? JSON.stringify(options.body) : undefined, timeoutMs: options.timeoutMs });
  } catch (err) {
    throw new PlatformError(0, `platform ${url} unreachable: ${reasonOf(err, options.timeoutMs)}`);
  }
}

/** A conditional GET's answer: unchanged (304), or the JSON with the validator to send next time. */
export type ConditionalAnswer = { changed: false } | { changed: true; json: unknown; etag: string | undefined };

/** GET `path` with If-None-Match `etag` when one is held (the polled routes answer 304 when nothing moved). */
export async function conditionalGet(url: string, path: string, token: string, etag: string | undefined, timeoutMs: number): Promise<ConditionalAnswer> {
  const answer = await exchange(url, "GET", path, { token, headers: etag ? { "If-None-Match": etag } : {}, timeoutMs });
  if (answer.status === 304) return { changed: false };
  return { changed: true, json: jsonOf<unknown>("GET", path, answer), etag: answer.header("etag") };
}

/** The answer's JSON; a non-2xx status or a body that is not JSON is a PlatformError carrying only PocketBase's message. */
export function jsonOf<T>(method: string, path: string, answer: PlatformAnswer): T {
  const route = `${method} ${path.split("?")[0]}`;
  if (answer.status < 200 || answer.status > 299) throw new PlatformError(answer.status, `${route}: ${answer.status} ${messageOf(answer.text)}`);
  try {
    return JSON.parse(answer.text) as T;
  } catch {
    throw new PlatformError(answer.status, `${route}: the answer is not JSON`);
  }
}

export function createPlatformClient(baseUrl: string, options: ClientOptions = {}): PlatformClient {
  const url = normalizeUrl(baseUrl);
  const timeoutMs = options.timeoutMs ?? 10_000;

  const request = async <T>(method: string, path: string, token: string | undefined, body?: object): Promise<T> =>
    jsonOf<T>(method, path, await exchange(url, method, path, { token, body, timeoutMs }));

  const auth = async (answer: Promise<{ token: string; record: ThingRecord }>): Promise<ThingAuth> => {
    const { token, record } = await answer;
    return { token, record: { id: record.id, code: record.code, email: record.email, organization: record.organization, active: record.active } };
  };

  return {
    url,
    authWithPassword: (email, password) =>
      auth(request("POST", `/api/collections/${THINGS}/auth-with-password`, undefined, { identity: email, password })),
    authRefresh: (token) => auth(request("POST", `/api/collections/${THINGS}/auth-refresh`, token)),
    identity: (token, include = []) =>
      request("GET", `/api/me/identity${include.length ? `?include=${include.join(",")}` : ""}`, token),
    pollIdentity: async (token, etag) => {
      const answer = await conditionalGet(url, "/api/me/identity", token, etag, timeoutMs);
      return answer.changed ? { changed: true, identity: answer.json as OwnIdentity, etag: answer.etag } : answer;
    },
    rotateBusCreds: (token) => request("POST", "/api/me/bus-creds/rotate", token),
  };
}

/** `https://host:port` without a trailing slash; refuses anything but http(s) with a clear message. */
export function normalizeUrl(text: string): string {
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    throw new PlatformError(0, `${JSON.stringify(text)} is not a URL (example: https://platform.example.com)`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new PlatformError(0, `the platform URL must be http:// or https://, not ${parsed.protocol}`);
  }
  if (parsed.username || parsed.password) throw new PlatformError(0, "the platform URL must not carry credentials");
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, "")}`;
}

/** PocketBase's `message` only, one line, bounded: an error body is never echoed whole. */
function messageOf(text: string): string {
  try {
    const message = (JSON.parse(text) as { message?: unknown }).message;
    if (typeof message === "string" && message) return message.split("\n")[0].slice(0, 200);
  } catch {
    // not JSON: say nothing of it
  }
  return "(no message)";
}

function reasonOf(err: unknown, timeoutMs: number): string {
  if (err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError")) return `no answer within ${timeoutMs} ms`;
  // A socket error's code names the reason (ECONNREFUSED, ENOTFOUND, ...) better than its message.
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === "string") return code;
  return err instanceof Error ? err.message.split("\n")[0] : String(err);
}
