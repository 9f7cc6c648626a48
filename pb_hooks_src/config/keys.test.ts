import { describe, expect, it } from "vitest";
import { CONFIG_KEYS, envName, isConfigKey, keyInfo } from "./keys";

describe("keys", () => {
  it("lists every control-plane key of spec 8.3, the replication keys and the credential lifetime, once", () => {
    expect(CONFIG_KEYS).toHaveLength(40 + 5 + 1);
    expect(CONFIG_KEYS).toContain("bus.user_credential_lifetime");
    expect(new Set(CONFIG_KEYS).size).toBe(CONFIG_KEYS.length);
    expect(CONFIG_KEYS.some((key) => key.startsWith("observability."))).toBe(false);
  });

  it("maps keys to environment variables as the spec's examples do", () => {
    expect(envName("bus.server_url")).toBe("PLATFORM_BUS_SERVER_URL");
    expect(envName("bus.default_limits.max_persist_disk_storage")).toBe("PLATFORM_BUS_DEFAULT_LIMITS_MAX_PERSIST_DISK_STORAGE");
    expect(new Set(CONFIG_KEYS.map(envName)).size).toBe(CONFIG_KEYS.length);
  });

  it("gives every key a meaning and a default of its type", () => {
    const typeOf = (value: unknown) =>
      Array.isArray(value) ? "string-list" : typeof value === "number" ? "int" : typeof value === "boolean" ? "bool" : "string";
    for (const key of CONFIG_KEYS) {
      const info = keyInfo(key);
      expect(info.meaning, key).not.toBe("");
      expect(typeOf(info.default), key).toBe(info.type);
    }
  });

  it("marks the secrets", () => {
    expect(CONFIG_KEYS.filter((key) => keyInfo(key).secret)).toEqual(["bus.encryption_key", "overlay.encryption_key", "metrics.token"]);
  });

  it("recognizes only known keys", () => {
    expect(isConfigKey("bus.server_url")).toBe(true);
    expect(isConfigKey("bus")).toBe(false);
    expect(isConfigKey("toString")).toBe(false);
  });
});
