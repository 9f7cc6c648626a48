import { describe, expect, it } from "vitest";
import { ConfigError } from "../../common/config/errors";
import { loadConfig } from "./load";
import { parseYaml } from "../../common/config/yaml";
import type { PlatformConfig } from "./types";
import { validateConfig } from "./validate";

const DEFAULTS = loadConfig({ env: {}, args: ["pocketbase"], cwd: "/nowhere", readFile: () => undefined, parseYaml });

type Sections = { [S in keyof PlatformConfig]?: Partial<PlatformConfig[S]> };

/** The defaults with some values replaced, one level deep (audit.retention and bus.default_limits whole). */
function withValues(changes: Sections): PlatformConfig {
  const config: Record<string, unknown> = { ...DEFAULTS };
  for (const [section, values] of Object.entries(changes)) {
    config[section] = { ...(DEFAULTS[section as keyof PlatformConfig] as object), ...values };
  }
  return config as unknown as PlatformConfig;
}

function refusal(changes: Sections): string {
  try {
    validateConfig(withValues(changes));
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error("expected a ConfigError");
}

const retention = (values: Partial<PlatformConfig["audit"]["retention"]>) => ({ retention: { ...DEFAULTS.audit.retention, ...values } });
const limits = (values: Partial<PlatformConfig["bus"]["default_limits"]>) => ({
  default_limits: { ...DEFAULTS.bus.default_limits, ...values },
});

describe("validateConfig", () => {
  it("accepts the defaults unchanged", () => {
    expect(validateConfig(DEFAULTS)).toEqual(DEFAULTS);
  });

  it("names keys through the describe callback", () => {
    expect(() => validateConfig(withValues({ metrics: {}, readiness: { timeout: "0" } }), (key) => `<${key}>`)).toThrow(
      '<readiness.timeout> must be greater than zero, got "0"',
    );
  });

  describe("bus.server_url", () => {
    it.each(["nats://hub:4222", "tls://hub:4222"])("keeps %s", (url) => {
      expect(validateConfig(withValues({ bus: { server_url: url } })).bus.server_url).toBe(url);
    });

    it("normalizes bus:// to nats://", () => {
      expect(validateConfig(withValues({ bus: { server_url: "bus://hub:4222" } })).bus.server_url).toBe("nats://hub:4222");
    });

    it("keeps the nodes of a cluster, separated by single spaces", () => {
      expect(validateConfig(withValues({ bus: { server_url: " nats://a:4222   bus://b:4222\ttls://c:4222 " } })).bus.server_url).toBe("nats://a:4222 nats://b:4222 tls://c:4222");
    });

    it.each(["", "hub:4222", "http://hub:4222", "nats://", "nats://a:4222,nats://b:4222", "nats://a:4222 hub:4222", "ws://hub:80"])(
      "refuses %j",
      (url) => {
        expect(refusal({ bus: { server_url: url } })).toBe(
          `bus.server_url must be one URL, or several separated by spaces (nodes of one cluster), each starting with nats://, tls:// or bus://, got ${JSON.stringify(url)}`,
        );
      },
    );
  });

  it("never quotes the credentials a refused URL carries", () => {
    expect(refusal({ bus: { server_url: "http://admin:hunter2@hub:4222" } })).toBe(
      'bus.server_url must be one URL, or several separated by spaces (nodes of one cluster), each starting with nats://, tls:// or bus://, got "http://hub:4222"',
    );
    expect(refusal({ bus: { leaf_url: "nats://token@hub:7422" } })).toContain('got "nats://hub:7422"');
    expect(refusal({ bus: { websocket_urls: ["ws://u:p@a:1,ws://b:2"] } })).toContain('entry "ws://a:1,ws://b:2"');
  });

  describe("bus.leaf_url", () => {
    it.each(["", "nats-leaf://hub:7422", "tls://hub:7422"])("keeps %j", (url) => {
      expect(validateConfig(withValues({ bus: { leaf_url: url } })).bus.leaf_url).toBe(url);
    });

    it("normalizes bus-leaf:// to nats-leaf://", () => {
      expect(validateConfig(withValues({ bus: { leaf_url: "bus-leaf://hub:7422" } })).bus.leaf_url).toBe("nats-leaf://hub:7422");
    });

    it.each(["nats://hub:7422", "bus://hub:7422", "nats-leaf://", "hub:7422"])("refuses %j", (url) => {
      expect(refusal({ bus: { leaf_url: url } })).toBe(
        `bus.leaf_url must be empty or one URL starting with nats-leaf://, tls:// or bus-leaf://, got ${JSON.stringify(url)}`,
      );
    });
  });

  it("refuses a websocket URL entry containing a comma", () => {
    expect(refusal({ bus: { websocket_urls: ["wss://a:443", "wss://b:443,wss://c:443"] } })).toBe(
      'bus.websocket_urls entry "wss://b:443,wss://c:443" contains a comma: separate URLs with spaces',
    );
  });

  describe("bus.managed_export_subject", () => {
    it.each(["helpdesk.>", "support.tickets.>", "a.*.>"])("accepts %j", (subject) => {
      expect(validateConfig(withValues({ bus: { managed_export_subject: subject } })).bus.managed_export_subject).toBe(subject);
    });

    it.each([">", ".>", "helpdesk", "helpdesk.*", "helpdesk..>", "help desk.>", "a.>.>", ""])("refuses %j", (subject) => {
      expect(refusal({ bus: { managed_export_subject: subject } })).toBe(
        `bus.managed_export_subject must be a subject ending in ".>" such as "helpdesk.>", got ${JSON.stringify(subject)}`,
      );
    });
  });

  describe("encryption keys", () => {
    const key32 = "0123456789abcdef0123456789abcdef";

    it("accepts empty or exactly 32 ASCII characters", () => {
      const config = validateConfig(withValues({ bus: { encryption_key: key32 }, overlay: { encryption_key: key32 } }));
      expect(config.bus.encryption_key).toBe(key32);
      expect(validateConfig(withValues({ bus: { encryption_key: "" } })).bus.encryption_key).toBe("");
    });

    it.each([key32.slice(1), `${key32}x`, `${key32.slice(1)}é`])("refuses a key of the wrong length or alphabet without echoing it", (bad) => {
      const message = refusal({ overlay: { encryption_key: bad } });
      const alphabet = bad.endsWith("é") ? ", not all printable ASCII" : "";
      expect(message).toBe(`overlay.encryption_key must be empty or exactly 32 ASCII characters, got ${bad.length} characters${alphabet}`);
      expect(refusal({ bus: { encryption_key: bad } })).toMatch(/^bus\.encryption_key must be empty or exactly 32 ASCII/);
    });
  });

  describe("durations", () => {
    it.each(["1m30s", "500ms", "720h"])("accepts readiness durations such as %s", (text) => {
      expect(validateConfig(withValues({ readiness: { interval: text, timeout: text } })).readiness.interval).toBe(text);
    });

    it("refuses text that is not a duration", () => {
      expect(refusal({ readiness: { interval: "15" } })).toBe(
        'readiness.interval is invalid: "15" is not a duration (examples: 15s, 1m30s, 500ms, 720h)',
      );
      expect(refusal({ audit: retention({ max_age: "30d" }) })).toBe(
        'audit.retention.max_age is invalid: "30d" is not a duration (examples: 15s, 1m30s, 500ms, 720h)',
      );
    });

    it("refuses zero and negative readiness durations", () => {
      expect(refusal({ readiness: { timeout: "0s" } })).toBe('readiness.timeout must be greater than zero, got "0s"');
      expect(refusal({ readiness: { interval: "-15s" } })).toBe('readiness.interval must be greater than zero, got "-15s"');
    });

    it("accepts an empty max_age (no age pruning) and refuses a zero one", () => {
      expect(validateConfig(withValues({ audit: retention({ max_age: "" }) })).audit.retention.max_age).toBe("");
      expect(refusal({ audit: retention({ max_age: "0" }) })).toBe('audit.retention.max_age must be greater than zero, got "0"');
    });
  });

  it("refuses a retention schedule that is not cron", () => {
    expect(refusal({ audit: retention({ interval: "daily" }) })).toMatch(/^audit\.retention\.interval is not a cron schedule: expected 5 fields/);
    expect(refusal({ audit: retention({ interval: "0 25 * * *" }) })).toBe(
      'audit.retention.interval is not a cron schedule: hour field "25" is invalid (values 0-23)',
    );
  });

  it("takes a credential lifetime between 2 s and ten years, as a duration", () => {
    const lifetime = (text: string) => ({ bus: { ...withValues({}).bus, user_credential_lifetime: text } });
    expect(validateConfig(withValues(lifetime("2s"))).bus.user_credential_lifetime).toBe("2s");
    expect(validateConfig(withValues(lifetime("87600h"))).bus.user_credential_lifetime).toBe("87600h");
    expect(refusal(lifetime("1s"))).toBe("bus.user_credential_lifetime must be between 2s and 87600h (ten years), got 1s");
    expect(refusal(lifetime("87601h"))).toBe("bus.user_credential_lifetime must be between 2s and 87600h (ten years), got 87601h");
    expect(refusal(lifetime("a month"))).toMatch(/^bus\.user_credential_lifetime is invalid: "a month" is not a duration/);
  });

  describe("integer bounds", () => {
    it("refuses values below the minimum", () => {
      expect(refusal({ tenancy: { invite_expiry_days: 0 } })).toBe("tenancy.invite_expiry_days must be at least 1 and at most 3650, got 0");
      expect(refusal({ overlay: { default_ca_validity_years: 0 } })).toBe("overlay.default_ca_validity_years must be at least 1 and at most 100, got 0");
      expect(refusal({ audit: retention({ max_records: -1 }) })).toBe("audit.retention.max_records must be at least 0, got -1");
    });

    it("refuses an expiry or a validity past what a date can carry", () => {
      expect(refusal({ tenancy: { invite_expiry_days: 1_000_000_000 } })).toBe("tenancy.invite_expiry_days must be at least 1 and at most 3650, got 1000000000");
      expect(refusal({ overlay: { default_ca_validity_years: 10_000 } })).toBe("overlay.default_ca_validity_years must be at least 1 and at most 100, got 10000");
      expect(validateConfig(withValues({ tenancy: { invite_expiry_days: 3650 } })).tenancy.invite_expiry_days).toBe(3650);
      expect(validateConfig(withValues({ overlay: { default_ca_validity_years: 100 } })).overlay.default_ca_validity_years).toBe(100);
    });

    it.each(["max_connections", "max_subscriptions", "max_payload", "max_persist_disk_storage", "max_persist_memory_storage"] as const)(
      "allows -1 (unlimited) and 0 but not -2 for %s",
      (limit) => {
        expect(validateConfig(withValues({ bus: limits({ [limit]: -1 }) })).bus.default_limits[limit]).toBe(-1);
        expect(validateConfig(withValues({ bus: limits({ [limit]: 0 }) })).bus.default_limits[limit]).toBe(0);
        expect(refusal({ bus: limits({ [limit]: -2 }) })).toBe(`bus.default_limits.${limit} must be at least -1, got -2`);
      },
    );
  });

  describe("collection names", () => {
    const collectionKeys = [
      ["tenancy", "organizations_collection"],
      ["tenancy", "memberships_collection"],
      ["tenancy", "invites_collection"],
      ["bus", "account_collection_name"],
      ["bus", "user_collection_name"],
      ["bus", "role_collection_name"],
      ["bus", "export_collection_name"],
      ["bus", "import_collection_name"],
      ["overlay", "ca_collection_name"],
      ["overlay", "network_collection_name"],
      ["overlay", "host_collection_name"],
      ["audit", "collection_name"],
    ] as const;

    it.each(collectionKeys)("checks %s.%s", (section, field) => {
      expect(refusal({ [section]: { [field]: "Bad-Name" } })).toBe(
        `${section}.${field} must be a collection name matching ^[a-z_][a-z0-9_]*$, got "Bad-Name"`,
      );
      expect(refusal({ [section]: { [field]: "" } })).toMatch(/must be a collection name/);
      expect(refusal({ [section]: { [field]: "9lives" } })).toMatch(/must be a collection name/);
      expect(validateConfig(withValues({ [section]: { [field]: "_custom_2" } }))[section]).toMatchObject({ [field]: "_custom_2" });
    });

    it("refuses two keys naming the same collection", () => {
      expect(refusal({ bus: { user_collection_name: "bus_accounts" } })).toBe(
        'bus.user_collection_name names the same collection "bus_accounts" as bus.account_collection_name',
      );
    });
  });
});

describe("replication", () => {
  it("accepts the bus's object store (no URL) and Litestream's replica URLs", () => {
    for (const url of ["", "file:///var/backups/records", "s3://backups/records", "sftp://host/path"]) {
      expect(validateConfig(withValues({ replication: { url } })).replication.url).toBe(url);
    }
  });

  it("refuses another scheme, a list, and a URL's credentials in the message", () => {
    expect(refusal({ replication: { url: "nats://127.0.0.1:4222/b" } })).toMatch(/^replication.url must be empty \(the bus's object store\) or one replica URL starting with file:\/\//);
    expect(refusal({ replication: { url: "file:///a file:///b" } })).toMatch(/^replication.url must be empty/);
    const message = refusal({ replication: { url: "ftp://user:secret@host/x" } });
    expect(message).not.toContain("secret");
  });

  it("refuses a metrics listener off loopback", () => {
    expect(refusal({ replication: { metrics_addr: "0.0.0.0:9091" } })).toBe('replication.metrics_addr must be a loopback host:port such as 127.0.0.1:9091, got "0.0.0.0:9091"');
    expect(validateConfig(withValues({ replication: { metrics_addr: "127.0.0.1:19091" } })).replication.metrics_addr).toBe("127.0.0.1:19091");
  });

  it("refuses a bucket name the object store cannot take, and a sync interval that is not a duration", () => {
    expect(refusal({ replication: { bucket: "a.b" } })).toBe('replication.bucket must be 1 to 64 letters, digits, - or _, got "a.b"');
    expect(refusal({ replication: { sync_interval: "soon" } })).toMatch(/^replication.sync_interval /);
  });
});
