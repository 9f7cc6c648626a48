import { describe, expect, it } from "vitest";
import { AGENT_KEYS } from "./keys";
import { ConfigError, loadAgentConfig, type AgentConfigSources } from "./load";
import type { AgentConfig } from "./types";

function sources(options: { env?: Record<string, string>; configPath?: string; files?: Record<string, string> } = {}): AgentConfigSources {
  const files = options.files ?? {};
  return { env: options.env ?? {}, configPath: options.configPath, cwd: "/srv/agent", readFile: (path) => files[path] };
}

function refusal(input: Parameters<typeof sources>[0]): string {
  try {
    loadAgentConfig(sources(input));
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    const message = (err as Error).message;
    expect(message).not.toContain("\n");
    return message;
  }
  throw new Error("expected a ConfigError");
}

const DEFAULTS: AgentConfig = {
  state_dir: "/var/lib/iot-agent",
  observability: { addr: "127.0.0.1:9100", metrics_token: "", interval: "15s" },
  platform: { sync_interval: "15m" },
  bus: { servers: [], creds: "", subject_prefix: "agents", heartbeat_interval: "15s" },
  telemetry: { enabled: true, interval: "15s" },
  overlay: { enabled: true, nebula: "nebula", handshake_timeout: "30s" },
  gateway: {
    enabled: false,
    nats_server: "nats-server",
    listen: "0.0.0.0:4222",
    monitor_port: 8222,
    leaf_config_interval: "10m",
    uplink_restart_after: "5m",
    kv: { mirrors: [], relays: [] },
  },
};

describe("loadAgentConfig", () => {
  it("gives the documented defaults without a file or variables", () => {
    expect(loadAgentConfig(sources())).toEqual(DEFAULTS);
  });

  it("maps keys to AGENT_* variables by the PLATFORM_* rule", () => {
    expect(AGENT_KEYS.envName("observability.addr")).toBe("AGENT_OBSERVABILITY_ADDR");
    expect(AGENT_KEYS.envName("bus.subject_prefix")).toBe("AGENT_BUS_SUBJECT_PREFIX");
    expect(AGENT_KEYS.envName("state_dir")).toBe("AGENT_STATE_DIR");
    expect(AGENT_KEYS.envName("gateway.kv.relays")).toBe("AGENT_GATEWAY_KV_RELAYS");
  });

  it("reads ./agent.yaml before /etc/iot-agent/agent.yaml, and --config instead of both", () => {
    const files = { "/srv/agent/agent.yaml": "state_dir: /cwd\n", "/etc/iot-agent/agent.yaml": "state_dir: /etc\n", "/x/a.yaml": "state_dir: /flag\n" };
    expect(loadAgentConfig(sources({ files })).state_dir).toBe("/cwd");
    expect(loadAgentConfig(sources({ files: { "/etc/iot-agent/agent.yaml": "state_dir: /etc\n" } })).state_dir).toBe("/etc");
    expect(loadAgentConfig(sources({ files, configPath: "/x/a.yaml" })).state_dir).toBe("/flag");
    expect(refusal({ files, configPath: "missing.yaml" })).toBe("flag --config: file /srv/agent/missing.yaml does not exist");
  });

  it("lets the environment beat the file, with typed values", () => {
    const files = {
      "/srv/agent/agent.yaml": "observability:\n  addr: 0.0.0.0:9200\n  interval: 5s\nbus:\n  servers: [bus://hub:4222, tls://b:4222]\ntelemetry: {enabled: false}\n",
    };
    const config = loadAgentConfig(sources({ files, env: { AGENT_OBSERVABILITY_ADDR: "", AGENT_TELEMETRY_ENABLED: "1", AGENT_BUS_SUBJECT_PREFIX: "site.a" } }));
    expect(config.observability).toEqual({ addr: "", metrics_token: "", interval: "5s" });
    expect(config.bus.servers).toEqual(["nats://hub:4222", "tls://b:4222"]);
    expect(config.bus.subject_prefix).toBe("site.a");
    expect(config.telemetry.enabled).toBe(true);
  });

  it("refuses an unknown key naming its dotted path, and a wrong type naming key and file", () => {
    expect(refusal({ files: { "/srv/agent/agent.yaml": "observability:\n  adr: x\n" } })).toBe('/srv/agent/agent.yaml: unknown key "observability.adr"');
    expect(refusal({ files: { "/srv/agent/agent.yaml": "telemetry:\n  enabled: yes please\n" } })).toBe(
      'telemetry.enabled (from /srv/agent/agent.yaml) must be true or false, got "yes please"',
    );
    expect(refusal({ env: { AGENT_OVERLAY_ENABLED: "maybe" } })).toBe('overlay.enabled (from env AGENT_OVERLAY_ENABLED) must be true, false, 1 or 0, got "maybe"');
  });

  it("never echoes the metrics token", () => {
    const message = refusal({ files: { "/srv/agent/agent.yaml": "observability:\n  metrics_token: 12345\n" } });
    expect(message).toBe("observability.metrics_token (from /srv/agent/agent.yaml) must be a string, got (hidden) (quote the value)");
  });

  it("validates durations, the listen address, hub URLs and the subject prefix", () => {
    expect(refusal({ env: { AGENT_OBSERVABILITY_INTERVAL: "15" } })).toMatch(/^observability\.interval \(from env AGENT_OBSERVABILITY_INTERVAL\) is invalid: "15" is not a duration/);
    expect(refusal({ env: { AGENT_PLATFORM_SYNC_INTERVAL: "0s" } })).toBe('platform.sync_interval (from env AGENT_PLATFORM_SYNC_INTERVAL) must be greater than zero, got "0s"');
    expect(refusal({ env: { AGENT_OBSERVABILITY_ADDR: "localhost" } })).toMatch(/^observability\.addr \(from env AGENT_OBSERVABILITY_ADDR\) must be empty or host:port/);
    expect(refusal({ env: { AGENT_OBSERVABILITY_ADDR: "h:70000" } })).toMatch(/^observability\.addr/);
    expect(loadAgentConfig(sources({ env: { AGENT_OBSERVABILITY_ADDR: "[::1]:0" } })).observability.addr).toBe("[::1]:0");
    expect(refusal({ env: { AGENT_BUS_SERVERS: "http://hub" } })).toBe('bus.servers (from env AGENT_BUS_SERVERS) entry "http://hub" must be one URL starting with nats://, tls:// or bus://');
    expect(refusal({ env: { AGENT_BUS_SUBJECT_PREFIX: "agents.>" } })).toMatch(/^bus\.subject_prefix .*\(no wildcards\), got "agents\.>"$/);
    expect(refusal({ env: { AGENT_STATE_DIR: "" } })).toBe("state_dir (from env AGENT_STATE_DIR) must not be empty");
  });
});
