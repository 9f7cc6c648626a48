// The key-value conventions of NATS (a bucket `b` is the stream KV_b holding `$KV.b.<key>`, the latest
// message of a subject is the key's value, a delete or purge is a marker message with a KV-Operation
// header) and how they cross from a site's leaf to the hub: the hub's JetStream API is addressed as
// `$JS.<hub domain>.API`, and the hub maps `$JS.<hub domain>.API.$KV.b.<key>` back to `$KV.b.<key>`
// (a plain `$KV.b.<key>` published at the site is captured by the site's own bucket only: measured).
// Pure: no connection here.
import type { StreamConfig } from "@nats-io/jetstream";

/** A stream config to create: everything optional but the name. */
export type NewStream = Partial<StreamConfig> & { name: string };

export type KvOperation = "PUT" | "DEL" | "PURGE";

/** What a relay compares: the operation, and the value for a put. */
export interface KvEntry {
  operation: KvOperation;
  value: Uint8Array;
}

/** A bucket name NATS accepts (it becomes one subject token and part of a stream name). */
export const validBucket = (bucket: string) => /^[A-Za-z0-9_-]+$/.test(bucket);

export const streamName = (bucket: string) => `KV_${bucket}`;
export const bucketSubjects = (bucket: string) => `$KV.${bucket}.>`;
export const keySubject = (bucket: string, key: string) => `$KV.${bucket}.${key}`;
export const hubApiPrefix = (hubDomain: string) => `$JS.${hubDomain}.API`;
/** Where the site publishes to write `key` into the hub's bucket. */
export const hubKeySubject = (hubDomain: string, bucket: string, key: string) => `${hubApiPrefix(hubDomain)}.${keySubject(bucket, key)}`;

/** The key a bucket message's subject names, or undefined for a subject outside the bucket. */
export function keyOf(bucket: string, subject: string): string | undefined {
  const prefix = `$KV.${bucket}.`;
  return subject.startsWith(prefix) && subject.length > prefix.length ? subject.slice(prefix.length) : undefined;
}

/** The operation of a stored bucket message from its KV-Operation header (absent: a put). */
export function operationOf(header: { get(name: string): string } | undefined): KvOperation {
  const value = header?.get("KV-Operation") ?? "";
  return value === "DEL" || value === "PURGE" ? value : "PUT";
}

/**
 * Whether the hub already holds what the site holds. A key absent, deleted or purged is the same
 * "no value" on either side, so a delete is not relayed onto a key the hub never had.
 */
export function sameEntry(site: KvEntry | undefined, hub: KvEntry | undefined): boolean {
  const siteValue = site?.operation === "PUT" ? site.value : undefined;
  const hubValue = hub?.operation === "PUT" ? hub.value : undefined;
  if (siteValue === undefined || hubValue === undefined) return siteValue === hubValue;
  return Buffer.from(siteValue).equals(Buffer.from(hubValue));
}

/** The headers a relayed write carries: none for a put, the marker (and, for a purge, the roll-up) otherwise. */
export function writeHeaders(operation: KvOperation): [string, string][] {
  if (operation === "DEL") return [["KV-Operation", "DEL"]];
  if (operation === "PURGE") return [["KV-Operation", "PURGE"], ["Nats-Rollup", "sub"]];
  return [];
}

/**
 * A relay's site bucket when the agent creates it: what a NATS client creates for a bucket with default
 * settings (one value per key, direct reads, roll-ups for purges, no message deletes).
 */
export function siteRelayStream(bucket: string): NewStream {
  return {
    name: streamName(bucket),
    subjects: [bucketSubjects(bucket)],
    max_msgs_per_subject: 1,
    discard: "new",
    allow_rollup_hdrs: true,
    deny_delete: true,
    allow_direct: true,
    num_replicas: 1,
  };
}

/**
 * A mirror's site bucket: the hub's bucket copied through the hub domain's API prefix, given as an
 * explicit external prefix (a mirror given only a domain may be refused as a cycle: nats.go issue 1591),
 * keeping the hub bucket's history and limits so site readers see what hub readers see.
 */
export function siteMirrorStream(bucket: string, hubDomain: string, hub: StreamConfig): NewStream {
  return {
    name: streamName(bucket),
    mirror: { name: streamName(bucket), external: { api: hubApiPrefix(hubDomain), deliver: "" } },
    max_msgs_per_subject: hub.max_msgs_per_subject,
    max_age: hub.max_age,
    max_bytes: hub.max_bytes,
    max_msg_size: hub.max_msg_size,
    discard: "old",
    allow_direct: true,
    mirror_direct: true,
    num_replicas: 1,
  };
}

/** Whether an existing site stream is this bucket's mirror of the hub (so it is adopted, never replaced). */
export function isMirrorOf(config: Partial<StreamConfig>, bucket: string, hubDomain: string): boolean {
  return config.mirror?.name === streamName(bucket) && config.mirror.external?.api === hubApiPrefix(hubDomain);
}
