import { describe, expect, it, vi } from "vitest";
import {
  deleteConsequence,
  entryOf,
  jetStreamBackend,
  listStores,
  parseBucketForm,
  parseBytes,
  parseDurationMs,
  parseStreamForm,
  purgeConsequence,
  streamsErrorMessage,
  subjectProblem,
  type StreamInfoLike,
  type StreamsBackend,
} from "./streams";

function info(name: string, extra: Partial<StreamInfoLike["config"]> = {}, messages = 3): StreamInfoLike {
  return {
    config: { name, subjects: [`${name.toLowerCase()}.>`], storage: "file", max_bytes: -1, max_age: 0, max_msgs_per_subject: -1, num_replicas: 1, ...extra },
    state: { messages, bytes: 2048, consumer_count: 2, last_ts: "2026-11-24T03:00:00Z" },
  };
}

async function* listing(...infos: StreamInfoLike[]) {
  yield* infos;
}

/** An in-memory backend: what a JetStream manager would hold. */
function memoryBackend(infos: StreamInfoLike[]): StreamsBackend {
  return {
    list: () => listing(...infos),
    info: async (name) => infos.find((i) => i.config.name === name)!,
    addStream: vi.fn(async () => undefined),
    addBucket: vi.fn(async () => undefined),
    purge: vi.fn(async () => ({ purged: 3 })),
    remove: vi.fn(async () => true),
  };
}

describe("listStores", () => {
  it("splits key-value buckets (KV_<bucket>) from streams, each by name", async () => {
    const stores = await listStores(memoryBackend([info("TELEMETRY"), info("KV_twin", { max_msgs_per_subject: 5, subjects: ["$KV.twin.>"] }), info("ALERTS"), info("KV_config")]));
    expect(stores.streams.map((s) => s.name)).toEqual(["ALERTS", "TELEMETRY"]);
    expect(stores.buckets.map((b) => [b.name, b.stream])).toEqual([["config", "KV_config"], ["twin", "KV_twin"]]);
    expect(stores.buckets[1].history).toBe(5);
  });

  it("reads sizes, consumers and the age limit in milliseconds", () => {
    expect(entryOf(info("S", { max_age: 3_600_000_000_000 }))).toMatchObject({ kind: "stream", messages: 3, bytes: 2048, consumers: 2, maxAgeMs: 3_600_000 });
  });
});

describe("jetStreamBackend", () => {
  it("maps each action onto the JetStream manager and Kvm", async () => {
    const jsm = { streams: { list: vi.fn(() => listing()), info: vi.fn(), add: vi.fn(), purge: vi.fn(async () => ({ purged: 1 })), delete: vi.fn(async () => true) } };
    const kvm = { create: vi.fn(async () => undefined) };
    const backend = jetStreamBackend(jsm, kvm);
    await backend.addStream({ name: "S", subjects: ["s.>"], storage: "file", max_bytes: -1, max_age: 0 });
    await backend.addBucket({ bucket: "twin", history: 5, ttl: 0, max_bytes: -1, storage: "memory" });
    await backend.purge("S");
    await backend.remove("KV_twin");
    expect(jsm.streams.add).toHaveBeenCalledWith({ name: "S", subjects: ["s.>"], storage: "file", max_bytes: -1, max_age: 0 });
    expect(kvm.create).toHaveBeenCalledWith("twin", { history: 5, ttl: 0, max_bytes: -1, storage: "memory" });
    expect(jsm.streams.purge).toHaveBeenCalledWith("S");
    expect(jsm.streams.delete).toHaveBeenCalledWith("KV_twin");
  });
});

describe("subjects, sizes and durations", () => {
  it("accepts what a stream may capture and says what is wrong otherwise", () => {
    for (const ok of ["telemetry.>", "site.*.heartbeat", "a"]) expect(subjectProblem(ok), ok).toBeUndefined();
    expect(subjectProblem("a..b")).toMatch(/empty token/);
    expect(subjectProblem("a.>.b")).toMatch(/last token/);
    expect(subjectProblem("a.b*")).toMatch(/whole token/);
  });
  it("reads sizes and durations, blank meaning no limit", () => {
    expect(parseBytes("")).toBe(-1);
    expect(parseBytes("512MiB")).toBe(512 * 1024 ** 2);
    expect(parseBytes("1 GB")).toBe(1e9);
    expect(parseBytes("lots")).toBeUndefined();
    expect(parseDurationMs("")).toBe(0);
    expect(parseDurationMs("7d")).toBe(7 * 86_400_000);
    expect(parseDurationMs("1w")).toBeUndefined();
  });
});

describe("parseStreamForm", () => {
  const form = { name: "TELEMETRY", subjects: "telemetry.> alerts.*", storage: "file" as const, maxBytes: "1GiB", maxAge: "12h" };
  it("builds the stream's configuration", () => {
    expect(parseStreamForm(form)).toEqual({ ok: true, value: { name: "TELEMETRY", subjects: ["telemetry.>", "alerts.*"], storage: "file", max_bytes: 1024 ** 3, max_age: 12 * 3_600_000 * 1e6 } });
  });
  it("names every refused field, and keeps KV_ for buckets", () => {
    const parsed = parseStreamForm({ name: "a.b", subjects: "", storage: "file", maxBytes: "big", maxAge: "soon" });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(Object.keys(parsed.errors).sort()).toEqual(["maxAge", "maxBytes", "name", "subjects"]);
    const reserved = parseStreamForm({ ...form, name: "KV_twin" });
    expect(!reserved.ok && reserved.errors.name).toMatch(/bucket/);
  });
});

describe("parseBucketForm", () => {
  it("builds the bucket's options, history 1 by default", () => {
    expect(parseBucketForm({ name: "twin-state", history: "", ttl: "1h", maxBytes: "", storage: "file" })).toEqual({ ok: true, value: { bucket: "twin-state", history: 1, ttl: 3_600_000, max_bytes: -1, storage: "file" } });
  });
  it("refuses names NATS refuses and a history beyond 64", () => {
    const parsed = parseBucketForm({ name: "twin.state", history: "65", ttl: "", maxBytes: "", storage: "file" });
    expect(!parsed.ok && Object.keys(parsed.errors).sort()).toEqual(["history", "name"]);
  });
});

describe("confirmations", () => {
  it("say what purging and deleting destroy", () => {
    const stream = entryOf(info("TELEMETRY", {}, 1200));
    expect(purgeConsequence(stream)).toBe("All 1,200 messages (2.0 KiB) of stream TELEMETRY are removed for good; the stream and its 2 consumers stay.");
    expect(deleteConsequence(stream)).toContain("publishers to telemetry.> get no acknowledgement");
    const bucket = entryOf(info("KV_twin", {}, 1));
    expect(purgeConsequence(bucket)).toContain("Every key of bucket twin");
    expect(deleteConsequence(bucket)).toBe("Bucket twin and its 1 entry are deleted for good; every device or screen reading or writing it gets errors until it is created again.");
  });
});

describe("streamsErrorMessage", () => {
  it("says a permission refusal is the caller's bus identity's bound", () => {
    const refusal = Object.assign(new Error("Permissions Violation for Publish to \"$JS.API.STREAM.CREATE.S\""), { name: "PermissionViolationError", operation: "publish", subject: "$JS.API.STREAM.CREATE.S" });
    expect(streamsErrorMessage(refusal)).toBe("Your bus identity may not publish to $JS.API.STREAM.CREATE.S: its permissions bound what you can do here.");
  });
  it("unwraps the refusal nats-core hands a request: a RequestError whose cause is the PermissionViolationError", () => {
    const cause = Object.assign(new Error('Permissions Violation for Publish to "$JS.API.INFO"'), { name: "PermissionViolationError", operation: "publish", subject: "$JS.API.INFO" });
    const wrapped = Object.assign(new Error(cause.message, { cause }), { name: "RequestError" });
    expect(streamsErrorMessage(wrapped)).toBe("Your bus identity may not publish to $JS.API.INFO: its permissions bound what you can do here.");
  });
  it("words JetStream's API codes and keeps the bus's message", () => {
    const overlap = Object.assign(new Error("subjects overlap with an existing stream"), { name: "JetStreamApiError", code: 10065 });
    expect(streamsErrorMessage(overlap)).toBe("Its subjects overlap those of an existing stream. (subjects overlap with an existing stream)");
    expect(streamsErrorMessage(Object.assign(new Error("JetStream not enabled for account"), { code: 10039 }))).toMatch(/persistence limits are 0/);
  });
  it("explains no answer and a timeout, and falls back to the message", () => {
    expect(streamsErrorMessage(Object.assign(new Error("no responders: '$JS.API.INFO'"), { name: "RequestError" }))).toMatch(/Nothing answered/);
    expect(streamsErrorMessage(Object.assign(new Error("timeout"), { name: "TimeoutError" }))).toMatch(/did not answer in time/);
    expect(streamsErrorMessage(new Error("stream name is required"))).toBe("stream name is required");
    expect(streamsErrorMessage(undefined)).toBe("The bus refused the request.");
  });
});
