// What the replication identity may do on the bus (pure): the JetStream API of the replica's one object
// store bucket (stream OBJ_<bucket>, subjects $O.<bucket>.>) and replies to itself, nothing else. Its account
// is the platform's own (identity.ts), so no organization's subject is reachable from it either way.
import type { Permissions } from "../bus/claims";

type UserPermissions = { publish: Permissions; subscribe: Permissions };

/** One stream's JetStream API (the actions named), its own subjects, and replies to the user itself. */
function streamPermissions(stream: string, subjects: string, actions: string[]): UserPermissions {
  return {
    publish: { allow: ["$JS.API.INFO", ...actions.map((action) => `$JS.API.${action}.${stream}`), subjects] },
    subscribe: { allow: ["_INBOX.>"] },
  };
}

export function replicaPermissions(bucket: string): UserPermissions {
  const stream = `OBJ_${bucket}`;
  const permissions = streamPermissions(stream, `$O.${bucket}.>`, [
    "STREAM.INFO",
    "STREAM.CREATE",
    "STREAM.UPDATE",
    "STREAM.PURGE",
    "STREAM.MSG.GET",
    "DIRECT.GET",
    "CONSUMER.CREATE",
  ]);
  // Per-consumer and per-subject endpoints, and the flow control of chunk reads (docs/litestream.md).
  permissions.publish.allow?.push(
    `$JS.API.DIRECT.GET.${stream}.>`,
    `$JS.API.CONSUMER.CREATE.${stream}.>`,
    `$JS.API.CONSUMER.DELETE.${stream}.>`,
    `$JS.API.CONSUMER.INFO.${stream}.>`,
    `$JS.FC.${stream}.>`,
  );
  return permissions;
}

/** The write lease's user: the one KV bucket of the lease (stream KV_<bucket>, subjects $KV.<bucket>.>). */
export function leasePermissions(bucket: string): UserPermissions {
  const stream = `KV_${bucket}`;
  const permissions = streamPermissions(stream, `$KV.${bucket}.>`, ["STREAM.INFO", "STREAM.CREATE", "STREAM.UPDATE", "STREAM.MSG.GET"]);
  permissions.publish.allow?.push(`$JS.API.DIRECT.GET.${stream}.>`);
  return permissions;
}

/** The object store's stream, as nats.go's CreateObjectStore makes it, with `replicas` copies on disk. */
export function objectStoreStreamConfig(bucket: string, replicas: number): Record<string, unknown> {
  return {
    name: `OBJ_${bucket}`,
    description: "The control plane's record store (Litestream replica)",
    subjects: [`$O.${bucket}.C.>`, `$O.${bucket}.M.>`],
    retention: "limits",
    max_consumers: -1,
    max_msgs: -1,
    max_bytes: -1,
    max_age: 0,
    max_msgs_per_subject: -1,
    max_msg_size: -1,
    storage: "file",
    discard: "new",
    num_replicas: replicas,
    duplicate_window: 120_000_000_000,
    allow_rollup_hdrs: true,
    allow_direct: true,
    deny_delete: true,
    deny_purge: false,
  };
}
