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
}
