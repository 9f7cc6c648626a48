// Persistent streams and key-value buckets of the organization's bus account (issue 13 item 5, spec 5.1:
// bounded by the caller's own bus permissions, offered to owner/admin). The browser asks JetStream itself,
// over the caller's own bus connection; this module is what the screen decides, written against a small
// backend (list, info, create, purge, delete) that a JetStream manager fills (jetStreamBackend), so it is
// tested without a bus. A key-value bucket is the stream `KV_<bucket>` (the NATS convention).

export const KV_PREFIX = "KV_";

/** What the screen reads of a JetStream StreamInfo (the field names are JetStream's own). */
export interface StreamInfoLike {
  config: {
    name: string;
    subjects?: string[];
    storage: string;
    max_bytes: number;
    /** Nanoseconds; 0 keeps messages forever. */
    max_age: number;
    max_msgs_per_subject: number;
    num_replicas: number;
  };
  state: { messages: number; bytes: number; consumer_count: number; last_ts: string };
}

export interface StreamSpec {
  name: string;
  subjects: string[];
  storage: "file" | "memory";
  /** -1: no limit. */
  max_bytes: number;
  /** Nanoseconds; 0: no limit. */
  max_age: number;
}

export interface BucketSpec {
  bucket: string;
  history: number;
  /** Milliseconds; 0: entries never expire. */
  ttl: number;
  max_bytes: number;
  storage: "file" | "memory";
}

export interface StreamsBackend {
  list(): AsyncIterable<StreamInfoLike>;
  info(stream: string): Promise<StreamInfoLike>;
  addStream(spec: StreamSpec): Promise<unknown>;
  addBucket(spec: BucketSpec): Promise<unknown>;
  purge(stream: string): Promise<{ purged: number }>;
  remove(stream: string): Promise<boolean>;
}

/** The parts of @nats-io/jetstream's JetStreamManager and @nats-io/kv's Kvm the backend uses. */
export interface JetStreamManagerLike {
  streams: {
    list(): AsyncIterable<StreamInfoLike>;
    info(name: string): Promise<StreamInfoLike>;
    add(config: Partial<StreamInfoLike["config"]>): Promise<unknown>;
    purge(name: string): Promise<{ purged: number }>;
    delete(name: string): Promise<boolean>;
  };
}
export interface KvmLike {
  create(bucket: string, options: { history: number; ttl: number; max_bytes: number; storage: "file" | "memory" }): Promise<unknown>;
}

export function jetStreamBackend(jsm: JetStreamManagerLike, kvm: KvmLike): StreamsBackend {
  return {
    list: () => jsm.streams.list(),
    info: (stream) => jsm.streams.info(stream),
    addStream: (spec) => jsm.streams.add(spec),
    // Kvm writes the bucket's stream with the KV conventions (rollups, per-key history, direct gets).
    addBucket: ({ bucket, ...options }) => kvm.create(bucket, options),
    purge: (stream) => jsm.streams.purge(stream),
    remove: (stream) => jsm.streams.delete(stream),
  };
}

export interface StoreEntry {
  kind: "stream" | "bucket";
  /** The stream's name, or the bucket's (without KV_). */
  name: string;
  stream: string;
  subjects: string[];
  messages: number;
  bytes: number;
  consumers: number;
  storage: string;
  maxBytes: number;
  maxAgeMs: number;
  /** Buckets: values kept per key. */
  history: number;
  lastActivity: string;
}

export function entryOf(info: StreamInfoLike): StoreEntry {
  const { config, state } = info;
  const bucket = config.name.startsWith(KV_PREFIX);
  return {
    kind: bucket ? "bucket" : "stream",
    name: bucket ? config.name.slice(KV_PREFIX.length) : config.name,
    stream: config.name,
    subjects: config.subjects ?? [],
    messages: state.messages,
    bytes: state.bytes,
    consumers: state.consumer_count,
    storage: config.storage,
    maxBytes: config.max_bytes,
    maxAgeMs: Math.round(config.max_age / 1e6),
    history: config.max_msgs_per_subject,
    lastActivity: state.last_ts,
  };
}

/** Every stream the caller may list, split into streams and buckets, each by name. */
export async function listStores(backend: StreamsBackend): Promise<{ streams: StoreEntry[]; buckets: StoreEntry[] }> {
  const entries: StoreEntry[] = [];
  for await (const info of backend.list()) entries.push(entryOf(info));
  entries.sort((a, b) => a.name.localeCompare(b.name));
  return { streams: entries.filter((e) => e.kind === "stream"), buckets: entries.filter((e) => e.kind === "bucket") };
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; errors: Record<string, string> };

// NATS refuses these in a stream name (it becomes a subject token and a directory name).
const STREAM_NAME = /^[^\s.*>/\\]+$/;
const BUCKET_NAME = /^[-\w]+$/;
const MAX_HISTORY = 64;

/** A subject a stream may capture: dot-separated non-empty tokens, `*` a whole token, `>` the last one. */
export function subjectProblem(subject: string): string | undefined {
  const tokens = subject.split(".");
  for (const [i, token] of tokens.entries()) {
    if (token === "" || /\s/.test(token)) return `“${subject}” has an empty token or a space.`;
    if (token.includes(">") && (token !== ">" || i !== tokens.length - 1)) return `“${subject}”: > may only be the whole last token.`;
    if (token.includes("*") && token !== "*") return `“${subject}”: * must be a whole token.`;
  }
  return undefined;
}

const UNITS: Record<string, number> = { "": 1, b: 1, kb: 1e3, mb: 1e6, gb: 1e9, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 };

/** "512MiB", "1 GB", "1048576"; blank is no limit (-1). */
export function parseBytes(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text.trim());
  if (text.trim() === "") return -1;
  const unit = match ? UNITS[match[2].toLowerCase()] : undefined;
  return match && unit !== undefined ? Math.floor(Number(match[1]) * unit) : undefined;
}

const DURATION_UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "30s", "15m", "12h", "7d" in milliseconds; blank is no limit (0). */
export function parseDurationMs(text: string): number | undefined {
  if (text.trim() === "") return 0;
  const match = /^(\d+)\s*([smhd])$/.exec(text.trim());
  return match ? Number(match[1]) * DURATION_UNITS[match[2]] : undefined;
}

export interface StreamForm {
  name: string;
  subjects: string;
  storage: "file" | "memory";
  maxBytes: string;
  maxAge: string;
}

export function parseStreamForm(form: StreamForm): Parsed<StreamSpec> {
  const errors: Record<string, string> = {};
  const name = form.name.trim();
  if (!STREAM_NAME.test(name)) errors.name = "A name without spaces, dots, *, >, / or \\.";
  else if (name.startsWith(KV_PREFIX)) errors.name = `Names starting with ${KV_PREFIX} are key-value buckets: create a bucket instead.`;
  const subjects = form.subjects.split(/[\s,]+/).filter((s) => s !== "");
  const subjectError = subjects.length === 0 ? "At least one subject, e.g. telemetry.>" : subjects.map(subjectProblem).find((p) => p !== undefined);
  if (subjectError) errors.subjects = subjectError;
  const max_bytes = parseBytes(form.maxBytes);
  if (max_bytes === undefined) errors.maxBytes = "A size such as 512MiB or 1GB, or blank for no limit.";
  const maxAge = parseDurationMs(form.maxAge);
  if (maxAge === undefined) errors.maxAge = "A duration such as 30m, 12h or 7d, or blank to keep messages.";
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, value: { name, subjects: [...new Set(subjects)], storage: form.storage, max_bytes: max_bytes!, max_age: maxAge! * 1e6 } };
}

export interface BucketForm {
  name: string;
  history: string;
  ttl: string;
  maxBytes: string;
  storage: "file" | "memory";
}

export function parseBucketForm(form: BucketForm): Parsed<BucketSpec> {
  const errors: Record<string, string> = {};
  const bucket = form.name.trim();
  if (!BUCKET_NAME.test(bucket)) errors.name = "Letters, digits, - and _ only.";
  const history = Number(form.history.trim() === "" ? "1" : form.history);
  if (!Number.isInteger(history) || history < 1 || history > MAX_HISTORY) errors.history = `A whole number from 1 to ${MAX_HISTORY}.`;
  const ttl = parseDurationMs(form.ttl);
  if (ttl === undefined) errors.ttl = "A duration such as 30m, 12h or 7d, or blank for entries that never expire.";
  const max_bytes = parseBytes(form.maxBytes);
  if (max_bytes === undefined) errors.maxBytes = "A size such as 512MiB or 1GB, or blank for no limit.";
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, value: { bucket, history, ttl: ttl!, max_bytes: max_bytes!, storage: form.storage } };
}

export function formatBytes(bytes: number): string {
  if (bytes < 0) return "no limit";
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

const count = (n: number, one: string, many: string) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

/** What purging does, in words, for the confirmation. */
export function purgeConsequence(entry: StoreEntry): string {
  return entry.kind === "bucket"
    ? `Every key of bucket ${entry.name} and its history (${count(entry.messages, "entry", "entries")}, ${formatBytes(entry.bytes)}) is removed for good; the bucket stays, and readers see no keys.`
    : `All ${count(entry.messages, "message", "messages")} (${formatBytes(entry.bytes)}) of stream ${entry.name} are removed for good; the stream and its ${count(entry.consumers, "consumer", "consumers")} stay.`;
}

/** What deleting does, in words, for the confirmation. */
export function deleteConsequence(entry: StoreEntry): string {
  return entry.kind === "bucket"
    ? `Bucket ${entry.name} and its ${count(entry.messages, "entry", "entries")} are deleted for good; every device or screen reading or writing it gets errors until it is created again.`
    : `Stream ${entry.name}, its ${count(entry.messages, "message", "messages")} and its ${count(entry.consumers, "consumer", "consumers")} are deleted for good; publishers to ${entry.subjects.join(", ") || "its subjects"} get no acknowledgement any more.`;
}

// JetStream's API error codes (nats-server errors.json) the screen words itself.
const API_MESSAGES: Record<number, string> = {
  10039: "JetStream is not enabled for this organization's bus account (its persistence limits are 0).",
  10058: "A stream with this name already exists with another configuration.",
  10059: "No such stream: it may have been deleted meanwhile.",
  10065: "Its subjects overlap those of an existing stream.",
  10027: "The account has reached its maximum number of streams.",
  10047: "The account's disk storage limit does not leave room for this.",
  10028: "The account's memory storage limit does not leave room for this.",
  10023: "The bus has not enough resources for this.",
};

/** A failed JetStream call in words: the bus's own refusal where it gave one, the code's meaning otherwise. */
export function streamsErrorMessage(error: unknown): string {
  const e = (typeof error === "object" && error !== null ? error : {}) as { name?: unknown; code?: unknown; message?: unknown; operation?: unknown; subject?: unknown; cause?: unknown };
  // nats-core rejects a request the server refused with a RequestError whose cause is the refusal itself.
  if (e.name === "RequestError" && typeof e.cause === "object" && e.cause !== null && (e.cause as { name?: unknown }).name === "PermissionViolationError") {
    return streamsErrorMessage(e.cause);
  }
  const message = typeof e.message === "string" ? e.message : "";
  if (e.name === "PermissionViolationError") {
    return `Your bus identity may not ${e.operation === "subscription" ? "subscribe to" : "publish to"} ${typeof e.subject === "string" ? e.subject : "this subject"}: its permissions bound what you can do here.`;
  }
  if (e.name === "NoResponders" || /no responders/i.test(message)) return "Nothing answered on the JetStream API: JetStream may be off for this account, or your bus identity may not use it.";
  if (e.name === "TimeoutError" || /^timeout$/i.test(message)) return "The bus did not answer in time; your bus identity may not be allowed to use the JetStream API.";
  if (typeof e.code === "number" && API_MESSAGES[e.code]) return `${API_MESSAGES[e.code]}${message ? ` (${message})` : ""}`;
  return message || "The bus refused the request.";
}
