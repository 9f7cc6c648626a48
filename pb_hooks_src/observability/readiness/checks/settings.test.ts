import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../config/load";
import { parseYaml } from "../../../../common/config/yaml";
import type { PlatformConfig } from "../../../config/types";
import type { CheckContext } from "./check";
import { busWebsocketUrls, encryptionAtRest } from "./settings";

const KEY_A = "0123456789abcdef0123456789abcdef";
const KEY_B = "fedcba9876543210fedcba9876543210";

/** A full configuration from the built-in defaults plus `env` (PLATFORM_* variables). */
function config(env: Record<string, string> = {}): PlatformConfig {
  return loadConfig({ env, args: ["/usr/local/bin/pocketbase", "serve"], cwd: "/srv/app", readFile: () => undefined, parseYaml });
}

function context(cfg: PlatformConfig): CheckContext {
  // Both checks read configuration only; they never touch the app.
  return { app: undefined as unknown as CoreApp, config: cfg, nowMs: 0, timeoutMs: 1000 };
}

describe("busWebsocketUrls", () => {
  it("warns with the defaults, where bus.websocket_urls is empty", () => {
    const outcome = busWebsocketUrls(context(config()));
    expect(outcome.state).toBe("warn");
    expect(outcome.detail).toContain("bus.websocket_urls is empty");
  });

  it("gives a fix naming the key and its environment variable when it warns", () => {
    const outcome = busWebsocketUrls(context(config()));
    const fix = outcome.state === "ok" ? "" : outcome.fix;
    expect(fix).toContain("bus.websocket_urls");
    expect(fix).toContain("PLATFORM_BUS_WEBSOCKET_URLS");
  });

  it("is ok once one websocket URL is set", () => {
    expect(busWebsocketUrls(context(config({ PLATFORM_BUS_WEBSOCKET_URLS: "wss://bus.example.com:443" })))).toEqual({ state: "ok" });
  });
});

describe("encryptionAtRest", () => {
  it("warns naming both keys with the defaults, where both are unset", () => {
    const outcome = encryptionAtRest(context(config()));
    expect(outcome.state).toBe("warn");
    expect(outcome.detail).toBe("bus.encryption_key and overlay.encryption_key are unset: new minting keys are stored in plaintext");
  });

  it("gives a fix naming both keys when both are unset", () => {
    const outcome = encryptionAtRest(context(config()));
    const fix = outcome.state === "ok" ? "" : outcome.fix;
    expect(fix).toBe(
      "Set bus.encryption_key (PLATFORM_BUS_ENCRYPTION_KEY) and overlay.encryption_key (PLATFORM_OVERLAY_ENCRYPTION_KEY), 32 characters each; rows written before stay plaintext.",
    );
  });

  it("warns naming only overlay.encryption_key when the bus key is set", () => {
    const outcome = encryptionAtRest(context(config({ PLATFORM_BUS_ENCRYPTION_KEY: KEY_A })));
    expect(outcome.state).toBe("warn");
    expect(outcome.detail).toBe("overlay.encryption_key is unset: new minting keys are stored in plaintext");
    // The fix names the unset key's variable, not the one already set.
    expect(outcome.state !== "ok" && outcome.fix).toBe("Set overlay.encryption_key (PLATFORM_OVERLAY_ENCRYPTION_KEY), 32 characters; rows written before stay plaintext.");
  });

  it("warns naming only bus.encryption_key when the overlay key is set", () => {
    const outcome = encryptionAtRest(context(config({ PLATFORM_OVERLAY_ENCRYPTION_KEY: KEY_B })));
    expect(outcome.state).toBe("warn");
    expect(outcome.detail).toBe("bus.encryption_key is unset: new minting keys are stored in plaintext");
    expect(outcome.detail).not.toContain("overlay");
  });

  it("is ok when both keys are set", () => {
    expect(encryptionAtRest(context(config({ PLATFORM_BUS_ENCRYPTION_KEY: KEY_A, PLATFORM_OVERLAY_ENCRYPTION_KEY: KEY_B })))).toEqual({ state: "ok" });
  });

  it("never puts a key's value in its outcome", () => {
    const outcome = encryptionAtRest(context(config({ PLATFORM_BUS_ENCRYPTION_KEY: KEY_A })));
    expect(JSON.stringify(outcome)).not.toContain(KEY_A);
  });
});
