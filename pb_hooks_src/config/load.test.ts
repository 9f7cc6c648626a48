import { describe, expect, it } from "vitest";
import { ConfigError, SERVICE_NAME, loadConfig, type ConfigSources } from "./load";
import type { PlatformConfig } from "./types";
import { parseYaml } from "../../common/config/yaml";

const CWD_FILE = "/srv/app/config.yaml";
const ETC_FILE = "/etc/iot-control-plane/config.yaml";

function sources(options: { env?: Record<string, string>; flags?: string[]; files?: Record<string, string> } = {}): ConfigSources {
  const files = options.files ?? {};
  return {
    env: options.env ?? {},
    args: ["/usr/local/bin/pocketbase", "serve", ...(options.flags ?? [])],
    cwd: "/srv/app",
    readFile: (path) => files[path],
    parseYaml,
  };
}

/** The ConfigError message loadConfig throws for these sources. */
function refusal(input: Parameters<typeof sources>[0]): string {
  try {
    loadConfig(sources(input));
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    const message = (err as ConfigError).message;
    expect(message).not.toContain("\n");
    return message;
  }
  throw new Error("expected a ConfigError");
}

const DEFAULTS: PlatformConfig = {
  tenancy: {
    organizations_collection: "organizations",
    memberships_collection: "memberships",
    invites_collection: "invites",
    invite_expiry_days: 7,
  },
  bus: {
    account_collection_name: "bus_accounts",
    user_collection_name: "bus_users",
    role_collection_name: "bus_roles",
    export_collection_name: "bus_account_exports",
    import_collection_name: "bus_account_imports",
    operator_name: "iot-control-plane.operator",
    server_url: "nats://localhost:4222",
    websocket_urls: [],
    leaf_url: "",
    persist_domain: "hub",
    encryption_key: "",
    managed_export_subject: "helpdesk.>",
    log_to_console: false,
    user_credential_lifetime: "720h",
    default_limits: {
      max_connections: 100,
      max_subscriptions: 5000,
      max_payload: 1048576,
      max_persist_disk_storage: 5368709120,
      max_persist_memory_storage: 67108864,
    },
    embedded: false,
    embedded_config: "./bus-config/bus.conf",
  },
  overlay: {
    ca_collection_name: "overlay_ca",
    network_collection_name: "overlay_networks",
    host_collection_name: "overlay_hosts",
    log_to_console: false,
    default_ca_validity_years: 10,
    encryption_key: "",
  },
  audit: {
    collection_name: "audit_logs",
    log_to_console: false,
    retention: { max_age: "", max_records: 0, interval: "0 2 * * *" },
  },
  readiness: { interval: "15s", timeout: "5s" },
  metrics: { enabled: true, token: "" },
  branding: { dir: "" },
  replication: { enabled: false, url: "", bucket: "platform-records", sync_interval: "1s", metrics_addr: "127.0.0.1:9091" },
};

describe("loadConfig: defaults", () => {
  it("runs with no config file, no environment and no flags", () => {
    expect(SERVICE_NAME).toBe("iot-control-plane");
    expect(loadConfig(sources())).toEqual(DEFAULTS);
  });

  it("hands out lists the caller may change without touching the defaults", () => {
    loadConfig(sources()).bus.websocket_urls.push("wss://changed");
    expect(loadConfig(sources()).bus.websocket_urls).toEqual([]);
  });
});

describe("loadConfig: environment", () => {
  it("reads every type", () => {
    const config = loadConfig(
      sources({
        env: {
          PLATFORM_BUS_PERSIST_DOMAIN: "edge",
          PLATFORM_TENANCY_INVITE_EXPIRY_DAYS: "3",
          PLATFORM_BUS_DEFAULT_LIMITS_MAX_CONNECTIONS: "-1",
          PLATFORM_METRICS_ENABLED: "FALSE",
          PLATFORM_AUDIT_LOG_TO_CONSOLE: "1",
          PLATFORM_BUS_WEBSOCKET_URLS: "  wss://a.example:443 \n wss://b.example:443 ",
          PLATFORM_BRANDING_DIR: "",
        },
      }),
    );
    expect(config.bus.persist_domain).toBe("edge");
    expect(config.tenancy.invite_expiry_days).toBe(3);
    expect(config.bus.default_limits.max_connections).toBe(-1);
    expect(config.metrics.enabled).toBe(false);
    expect(config.audit.log_to_console).toBe(true);
    expect(config.bus.websocket_urls).toEqual(["wss://a.example:443", "wss://b.example:443"]);
  });

  it("sets a string to empty when the variable is empty", () => {
    const files = { [CWD_FILE]: "branding:\n  dir: /srv/brand\n" };
    expect(loadConfig(sources({ files, env: { PLATFORM_BRANDING_DIR: "" } })).branding.dir).toBe("");
  });

  it("ignores PLATFORM_ variables no key maps to", () => {
    expect(loadConfig(sources({ env: { PLATFORM_OBSERVABILITY_ADDR: "0.0.0.0:9100", PLATFORM_NOPE: "x" } }))).toEqual(DEFAULTS);
  });

  it.each(["abc", "7.0", " 7", "1e3", "0x10", "", "+7", "99999999999999999999"])("refuses the integer %j", (text) => {
    expect(refusal({ env: { PLATFORM_TENANCY_INVITE_EXPIRY_DAYS: text } })).toBe(
      `tenancy.invite_expiry_days (from env PLATFORM_TENANCY_INVITE_EXPIRY_DAYS) must be an integer, got ${JSON.stringify(text)}`,
    );
  });

  it.each(["yes", "on", "", "2"])("refuses the boolean %j", (text) => {
    expect(refusal({ env: { PLATFORM_METRICS_ENABLED: text } })).toBe(
      `metrics.enabled (from env PLATFORM_METRICS_ENABLED) must be true, false, 1 or 0, got ${JSON.stringify(text)}`,
    );
  });

  it("refuses a comma-joined URL list", () => {
    expect(refusal({ env: { PLATFORM_BUS_WEBSOCKET_URLS: "wss://a:443,wss://b:443" } })).toBe(
      'bus.websocket_urls (from env PLATFORM_BUS_WEBSOCKET_URLS) entry "wss://a:443,wss://b:443" contains a comma: separate URLs with spaces',
    );
  });

  it("normalizes the spec's scheme aliases", () => {
    const config = loadConfig(
      sources({ env: { PLATFORM_BUS_SERVER_URL: "bus://hub.example:4222", PLATFORM_BUS_LEAF_URL: "bus-leaf://hub.example:7422" } }),
    );
    expect(config.bus.server_url).toBe("nats://hub.example:4222");
    expect(config.bus.leaf_url).toBe("nats-leaf://hub.example:7422");
  });
});

describe("loadConfig: priority", () => {
  const files = {
    "/srv/app/custom.yaml": "bus:\n  persist_domain: from-config-flag\n",
    [CWD_FILE]: "bus:\n  persist_domain: from-cwd\n",
    [ETC_FILE]: "bus:\n  persist_domain: from-etc\n  log_to_console: true\n",
  };

  it("environment beats --config", () => {
    const config = loadConfig(sources({ files, flags: ["--config", "custom.yaml"], env: { PLATFORM_BUS_PERSIST_DOMAIN: "from-env" } }));
    expect(config.bus.persist_domain).toBe("from-env");
  });

  it("--config beats config.yaml in the working directory, which is then not read", () => {
    const config = loadConfig(sources({ files, flags: ["--config=/srv/app/custom.yaml"] }));
    expect(config.bus.persist_domain).toBe("from-config-flag");
    expect(config.bus.log_to_console).toBe(false);
  });

  it("config.yaml in the working directory beats the one under /etc, which is then not read", () => {
    const config = loadConfig(sources({ files }));
    expect(config.bus.persist_domain).toBe("from-cwd");
    expect(config.bus.log_to_console).toBe(false);
  });

  it("the file under /etc beats the defaults", () => {
    const config = loadConfig(sources({ files: { [ETC_FILE]: files[ETC_FILE] } }));
    expect(config.bus.persist_domain).toBe("from-etc");
    expect(config.bus.log_to_console).toBe(true);
  });

  it("a file sets only the keys it names", () => {
    const config = loadConfig(sources({ files: { [CWD_FILE]: files[CWD_FILE] } }));
    expect({ ...config, bus: { ...config.bus, persist_domain: "hub" } }).toEqual(DEFAULTS);
  });

  it("refuses a --config file that does not exist", () => {
    expect(refusal({ files, flags: ["--config", "missing.yaml"] })).toBe("flag --config: file /srv/app/missing.yaml does not exist");
    expect(refusal({ flags: ["--config"] })).toBe("flag --config needs a path");
    expect(refusal({ flags: ["--config="] })).toBe("flag --config needs a path");
  });

  it("takes the last --config and stops at --", () => {
    const config = loadConfig(sources({ files, flags: ["--config", "nope.yaml", "--config", "custom.yaml", "--", "--config", "nope.yaml"] }));
    expect(config.bus.persist_domain).toBe("from-config-flag");
  });
});

describe("loadConfig: flags", () => {
  const env = { PLATFORM_BUS_EMBEDDED: "false", PLATFORM_BUS_EMBEDDED_CONFIG: "/env/bus.conf" };

  it("--bus and --bus-config beat the environment and files", () => {
    const files = { [CWD_FILE]: "bus:\n  embedded: false\n  embedded_config: /file/bus.conf\n" };
    const config = loadConfig(sources({ env, files, flags: ["--bus", "--bus-config", "/flag/bus.conf"] }));
    expect(config.bus.embedded).toBe(true);
    expect(config.bus.embedded_config).toBe("/flag/bus.conf");
  });

  it("reads --bus=true|false and --bus-config=path", () => {
    const on = loadConfig(sources({ env: { PLATFORM_BUS_EMBEDDED: "true" }, flags: ["--bus=false", "--bus-config=x.conf"] }));
    expect(on.bus.embedded).toBe(false);
    expect(on.bus.embedded_config).toBe("x.conf");
    expect(loadConfig(sources({ flags: ["--bus=TRUE"] })).bus.embedded).toBe(true);
  });

  it("leaves the values to other sources when the flags are absent", () => {
    const config = loadConfig(sources({ env }));
    expect(config.bus.embedded).toBe(false);
    expect(config.bus.embedded_config).toBe("/env/bus.conf");
  });

  it("ignores flags after --", () => {
    expect(loadConfig(sources({ flags: ["--", "--bus"] })).bus.embedded).toBe(false);
  });

  it("refuses a bad --bus value and a missing --bus-config path", () => {
    expect(refusal({ flags: ["--bus=maybe"] })).toBe('bus.embedded (from flag --bus) must be true, false, 1 or 0, got "maybe"');
    expect(refusal({ flags: ["--bus-config"] })).toBe("flag --bus-config needs a path");
  });
});

describe("loadConfig: files", () => {
  const file = (text: string) => ({ files: { [CWD_FILE]: text } });

  it("reads nested keys, dotted keys, lists and every type", () => {
    const config = loadConfig(
      sources(
        file(
          [
            "tenancy:",
            "  invite_expiry_days: 14",
            "bus:",
            "  websocket_urls:",
            "    - wss://a.example:443",
            "    - wss://b.example:443",
            "  default_limits:",
            "    max_payload: -1",
            "audit.retention.max_age: 720h",
            "metrics:",
            "  enabled: false",
            "overlay: # every key commented out",
          ].join("\n"),
        ),
      ),
    );
    expect(config.tenancy.invite_expiry_days).toBe(14);
    expect(config.bus.websocket_urls).toEqual(["wss://a.example:443", "wss://b.example:443"]);
    expect(config.bus.default_limits.max_payload).toBe(-1);
    expect(config.audit.retention.max_age).toBe("720h");
    expect(config.metrics.enabled).toBe(false);
  });

  it("reads a list written as a space-separated string", () => {
    const config = loadConfig(sources(file('bus:\n  websocket_urls: "wss://a.example:443 wss://b.example:443"\n')));
    expect(config.bus.websocket_urls).toEqual(["wss://a.example:443", "wss://b.example:443"]);
  });

  it("accepts an empty file", () => {
    expect(loadConfig(sources(file("# nothing yet\n")))).toEqual(DEFAULTS);
  });

  it("refuses an unknown key, naming it and the file", () => {
    expect(refusal(file("bus:\n  servr_url: nats://x:4222\n"))).toBe('/srv/app/config.yaml: unknown key "bus.servr_url"');
    expect(refusal(file("observability:\n  addr: 127.0.0.1:9100\n"))).toBe('/srv/app/config.yaml: unknown key "observability"');
    expect(refusal(file("bus:\n  default_limits:\n    max_payloads: 1\n"))).toBe(
      '/srv/app/config.yaml: unknown key "bus.default_limits.max_payloads"',
    );
  });

  it("refuses wrong types", () => {
    expect(refusal(file("tenancy:\n  invite_expiry_days: abc\n"))).toBe(
      'tenancy.invite_expiry_days (from /srv/app/config.yaml) must be an integer, got "abc"',
    );
    expect(refusal(file("tenancy:\n  invite_expiry_days: 1.5\n"))).toBe(
      "tenancy.invite_expiry_days (from /srv/app/config.yaml) must be an integer, got 1.5",
    );
    expect(refusal(file("metrics:\n  enabled: yes\n"))).toBe('metrics.enabled (from /srv/app/config.yaml) must be true or false, got "yes"');
    expect(refusal(file("readiness:\n  timeout: 5\n"))).toBe(
      "readiness.timeout (from /srv/app/config.yaml) must be a string, got 5 (quote the value)",
    );
    expect(refusal(file("bus:\n  websocket_urls: [1, 2]\n"))).toBe(
      "bus.websocket_urls (from /srv/app/config.yaml) must be a list of strings or a space-separated string, got [1,2]",
    );
    expect(refusal(file("bus:\n  leaf_url:\n"))).toBe(
      'bus.leaf_url (from /srv/app/config.yaml) must be a string, got null (write "" for an empty string, or remove the key)',
    );
    expect(refusal(file("audit:\n  retention:\n    max_records:\n"))).toBe(
      "audit.retention.max_records (from /srv/app/config.yaml) must be an integer, got null (give a value, or remove the key)",
    );
  });

  it("never echoes a secret", () => {
    expect(refusal(file("bus:\n  encryption_key: 12345678901234567890123456789012\n"))).toBe(
      "bus.encryption_key (from /srv/app/config.yaml) must be a string, got (hidden) (quote the value)",
    );
  });

  it("refuses a misshapen file", () => {
    expect(refusal(file("- a\n- b\n"))).toBe("/srv/app/config.yaml: the top level must be a mapping of keys");
    expect(refusal(file("bus: nats://x:4222\n"))).toBe('/srv/app/config.yaml: "bus" must be a mapping of keys');
    expect(refusal(file("bus:\n  persist_domain: a\nbus.persist_domain: b\n"))).toBe('/srv/app/config.yaml: key "bus.persist_domain" is set twice');
    expect(refusal(file("bus:\n  persist_domain: a\n persist_domain: b\n"))).toMatch(
      /^\/srv\/app\/config\.yaml: invalid YAML: .* at line 3, column \d+$/,
    );
    expect(refusal(file("bus:\n  persist_domain: a\n  persist_domain: b\n"))).toMatch(/invalid YAML: duplicated mapping key at line 3/);
  });
});

describe("loadConfig: validation names the source", () => {
  it("reports where a refused value came from", () => {
    expect(refusal({ env: { PLATFORM_BUS_LEAF_URL: "http://hub:7422" } })).toBe(
      'bus.leaf_url (from env PLATFORM_BUS_LEAF_URL) must be empty or one URL starting with nats-leaf://, tls:// or bus-leaf://, got "http://hub:7422"',
    );
    expect(refusal({ files: { [ETC_FILE]: "readiness:\n  interval: 0s\n" } })).toBe(
      'readiness.interval (from /etc/iot-control-plane/config.yaml) must be greater than zero, got "0s"',
    );
  });

  it("names both keys of a collection name clash, default included", () => {
    expect(refusal({ env: { PLATFORM_AUDIT_COLLECTION_NAME: "invites" } })).toBe(
      'audit.collection_name (from env PLATFORM_AUDIT_COLLECTION_NAME) names the same collection "invites" as tenancy.invites_collection',
    );
  });
});
