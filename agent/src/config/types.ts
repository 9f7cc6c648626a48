// The agent's configuration (agent.yaml, AGENT_* overrides; spec 8.3's observability.* keys plus the
// agent's own). Durations are Go duration text (`15s`), as everywhere else in the platform.
export interface AgentConfig {
  /** Where enrollment writes the session, the creds file and the overlay config (0600 files). */
  state_dir: string;
  observability: {
    /** `host:port` of /ready and /metrics; empty: no listener, checks still run and log. */
    addr: string;
    /** Empty: /metrics is open. */
    metrics_token: string;
    interval: string;
  };
  platform: {
    /** How often the Thing's bus identity and overlay host are re-read (the overlay's 60 s refresh). */
    sync_interval: string;
  };
  bus: {
    /** Client URLs of the hub (`nats://`, `tls://` or the platform's `bus://`); empty: the platform host, port 4222. */
    servers: string[];
    /** Path of a creds file managed outside the platform; set: no platform sync of bus credentials. */
    creds: string;
    subject_prefix: string;
    heartbeat_interval: string;
  };
  telemetry: {
    /** System metrics (CPU, memory, disks); off: the task_metrics check is skipped. */
    enabled: boolean;
    interval: string;
  };
  overlay: {
    /** Off: no nebula, the overlay check is skipped. On: nebula runs when the Thing has an overlay host. */
    enabled: boolean;
    /** The nebula binary. */
    nebula: string;
    /** A new config that brings no lighthouse handshake within this long is rolled back. */
    handshake_timeout: string;
  };
  gateway: {
    /** A site gateway: runs a leaf server (the pinned nats-server) that local devices connect to. */
    enabled: boolean;
    /** The nats-server binary. */
    nats_server: string;
    /** host:port local devices connect to (the leaf's client port). */
    listen: string;
    /** The leaf's monitoring port, bound to loopback only; 0: none (server-derived metrics omitted). */
    monitor_port: number;
    /** How often GET /api/me/leaf-config is re-read (also on every uplink reconnect). */
    leaf_config_interval: string;
    /** An uplink absent this long while the hub's leaf port accepts connections: reload, then restart. */
    uplink_restart_after: string;
    kv: {
      /** Buckets copied hub → site. */
      mirrors: string[];
      /** Buckets relayed site → hub (deletes included), with a backlog that survives restarts. */
      relays: string[];
    };
  };
}
