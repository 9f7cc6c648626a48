// Sealing of bus secrets with bus.encryption_key through PocketBase's AES-GCM ($security).
import { currentConfig } from "../config/runtime";
import { SealingError, seal, unseal, type Cipher } from "./sealing";

const cipher: Cipher = {
  encrypt: (plain, key) => $security.encrypt(plain, key),
  decrypt: (sealed, key) => toString($security.decrypt(sealed, key)),
};

export function sealSecret(plain: string): string {
  return seal(cipher, plain, currentConfig().bus.encryption_key);
}

/** A sealed row without its key is the operator's to fix: answered as a 400 that says so, not a 500. */
export function unsealSecret(stored: string, what: string): string {
  try {
    return unseal(cipher, stored, currentConfig().bus.encryption_key, what);
  } catch (err) {
    if (err instanceof SealingError) throw new BadRequestError(err.message);
    throw err;
  }
}
