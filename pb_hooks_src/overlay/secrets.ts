// Sealing of overlay private keys with overlay.encryption_key (lib/sealing.ts).
import { currentConfig } from "../config/runtime";
import { sealWithKey, unsealWithKey } from "../lib/secrets";

export function sealOverlaySecret(plain: string): string {
  return sealWithKey(plain, currentConfig().overlay.encryption_key);
}

/** A sealed row without its key: a 400 that names overlay.encryption_key, never the value. */
export function unsealOverlaySecret(stored: string, what: string): string {
  return unsealWithKey(stored, currentConfig().overlay.encryption_key, "overlay.encryption_key", what);
}
