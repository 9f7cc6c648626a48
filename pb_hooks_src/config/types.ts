/** The platform's configuration: every key of the service spec, section 8.3, after defaults and overrides. */
export interface PlatformConfig {
  tenancy: {
    organizations_collection: string;
    memberships_collection: string;
    invites_collection: string;
    invite_expiry_days: number;
  };
  bus: {
    account_collection_name: string;
    user_collection_name: string;
    role_collection_name: string;
    export_collection_name: string;
    import_collection_name: string;
    operator_name: string;
    /** Normalized to NATS's own scheme (`nats://`); the spec's `bus://` is accepted as an alias. */
    server_url: string;
    websocket_urls: string[];
    /** Normalized to `nats-leaf://` or `tls://`; empty when unset. */
    leaf_url: string;
    persist_domain: string;
    encryption_key: string;
    managed_export_subject: string;
    log_to_console: boolean;
    /** Go duration: how long a bus user's credential is valid; renewed with half of it left. */
    user_credential_lifetime: string;
    default_limits: {
      max_connections: number;
      max_subscriptions: number;
      max_payload: number;
      max_persist_disk_storage: number;
      max_persist_memory_storage: number;
    };
    embedded: boolean;
    embedded_config: string;
  };
  overlay: {
    ca_collection_name: string;
    network_collection_name: string;
    host_collection_name: string;
    log_to_console: boolean;
    default_ca_validity_years: number;
    encryption_key: string;
  };
  audit: {
    collection_name: string;
    log_to_console: boolean;
    retention: { max_age: string; max_records: number; interval: string };
  };
  readiness: { interval: string; timeout: string };
  metrics: { enabled: boolean; token: string };
  branding: { dir: string };
  replication: {
    enabled: boolean;
    /** A Litestream replica URL (file://, s3://, ...); empty: the bus's own object store. */
    url: string;
    bucket: string;
    sync_interval: string;
    /** host:port of Litestream's metrics listener; loopback only (it serves Go's profiler too). */
    metrics_addr: string;
  };
}
