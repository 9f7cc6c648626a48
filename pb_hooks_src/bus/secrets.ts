// Sealing of bus secrets with bus.encryption_key (lib/sealing.ts).
import { currentConfig } from "../config/runtime";
import { sealWithKey, unsealWithKey } from "../lib/secrets";

export function sealSecret(plain: string): string {
  return sealWithKey(plain, currentConfig().bus.encryption_key);
}

/** A sealed row without its key is the operator's to fix: answered as a 400 that names bus.encryption_key. */
export function unsealSecret(stored: string, what: string): string {
  return unsealWithKey(stored, currentConfig().bus.encryption_key, "bus.encryption_key", what);
}
