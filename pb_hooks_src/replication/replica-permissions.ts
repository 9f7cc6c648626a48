// What the replication identity may do on the bus (pure): the JetStream API of the replica's one object
// store bucket (stream OBJ_<bucket>, subjects $O.<bucket>.>) and replies to itself, nothing else. Its account
// is the platform's own (identity.ts), so no organization's subject is reachable from it either way.
import type { Permissions } from "../bus/claims";

export function replicaPermissions(bucket: string): { publish: Permissions; subscribe: Permissions } {
  const stream = `OBJ_${bucket}`;
  return {
    publish: {
      allow: [
        "$JS.API.INFO",
        `$JS.API.STREAM.INFO.${stream}`,
        `$JS.API.STREAM.CREATE.${stream}`,
        `$JS.API.STREAM.UPDATE.${stream}`,
        `$JS.API.STREAM.PURGE.${stream}`,
        `$JS.API.STREAM.MSG.GET.${stream}`,
        `$JS.API.DIRECT.GET.${stream}.>`,
        `$JS.API.CONSUMER.CREATE.${stream}`,
        `$JS.API.CONSUMER.CREATE.${stream}.>`,
        `$JS.API.CONSUMER.DELETE.${stream}.>`,
        `$JS.API.CONSUMER.INFO.${stream}.>`,
        `$JS.FC.${stream}.>`,
        `$O.${bucket}.>`,
      ],
    },
    subscribe: { allow: ["_INBOX.>"] },
  };
}

/** The write lease's user: the one KV bucket of the lease (stream KV_<bucket>, subjects $KV.<bucket>.>). */
export function leasePermissions(bucket: string): { publish: Permissions; subscribe: Permissions } {
  const stream = `KV_${bucket}`;
  return {
    publish: {
      allow: [
        "$JS.API.INFO",
        `$JS.API.STREAM.INFO.${stream}`,
        `$JS.API.STREAM.CREATE.${stream}`,
        `$JS.API.STREAM.UPDATE.${stream}`,
        `$JS.API.STREAM.MSG.GET.${stream}`,
        `$JS.API.DIRECT.GET.${stream}.>`,
        `$KV.${bucket}.>`,
      ],
    },
    subscribe: { allow: ["_INBOX.>"] },
  };
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
