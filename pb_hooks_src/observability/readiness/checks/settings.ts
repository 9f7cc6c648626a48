// The two checks that read configuration only (spec 4.3): never fail, warn on a gap. Pure.
import { envName, type ConfigKey } from "../../../config/keys";
import type { Check } from "./check";

export const busWebsocketUrls: Check = ({ config }) =>
  config.bus.websocket_urls.length > 0
    ? { state: "ok" }
    : {
        state: "warn",
        detail: "bus.websocket_urls is empty: /api/client-config gives browsers no bus address",
        fix: "Set bus.websocket_urls (PLATFORM_BUS_WEBSOCKET_URLS, space-separated) to the bus server's websocket addresses.",
      };

/** Covers the keys that encrypt minting keys at rest; issued credentials are plaintext by construction. */
export const encryptionAtRest: Check = ({ config }) => {
  const keys: [ConfigKey, string][] = [
    ["bus.encryption_key", config.bus.encryption_key],
    ["overlay.encryption_key", config.overlay.encryption_key],
  ];
  const unset = keys.filter(([, value]) => value === "").map(([key]) => key);
  if (unset.length === 0) return { state: "ok" };
  const each = unset.length === 1 ? "" : " each";
  return {
    state: "warn",
    detail: `${unset.join(" and ")} ${unset.length === 1 ? "is" : "are"} unset: new minting keys are stored in plaintext`,
    fix: `Set ${unset.map((key) => `${key} (${envName(key)})`).join(" and ")}, 32 characters${each}; rows written before stay plaintext.`,
  };
};
