// Sealing through PocketBase's AES-GCM ($security) with a domain's configuration key (lib/sealing.ts):
// bus secrets with bus.encryption_key, overlay private keys with overlay.encryption_key.
import { currentConfig } from "../config/runtime";
import { SealingError, seal, unseal, type Cipher } from "./sealing";

/** The domains whose secrets are sealed, each with its own `<domain>.encryption_key`. */
export type SealingDomain = "bus" | "overlay";

const cipher: Cipher = {
  encrypt: (plain, key) => $security.encrypt(plain, key),
  decrypt: (sealed, key) => toString($security.decrypt(sealed, key)),
};

export function sealSecret(domain: SealingDomain, plain: string): string {
  return seal(cipher, plain, currentConfig()[domain].encryption_key);
}

/**
 * A sealed row without its key is the operator's to fix: answered as a 400 that names the domain's key
 * (never the value), not a 500.
 */
export function unsealSecret(domain: SealingDomain, stored: string, what: string): string {
  try {
    return unseal(cipher, stored, currentConfig()[domain].encryption_key, `${domain}.encryption_key`, what);
  } catch (err) {
    if (err instanceof SealingError) throw new BadRequestError(err.message);
    throw err;
  }
}
