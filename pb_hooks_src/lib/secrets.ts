// Sealing through PocketBase's AES-GCM ($security) with a named configuration key (lib/sealing.ts).
import { SealingError, seal, unseal, type Cipher } from "./sealing";

const cipher: Cipher = {
  encrypt: (plain, key) => $security.encrypt(plain, key),
  decrypt: (sealed, key) => toString($security.decrypt(sealed, key)),
};

export function sealWithKey(plain: string, key: string): string {
  return seal(cipher, plain, key);
}

/** A sealed row without its key is the operator's to fix: answered as a 400 that says so, not a 500. */
export function unsealWithKey(stored: string, key: string, keyName: string, what: string): string {
  try {
    return unseal(cipher, stored, key, keyName, what);
  } catch (err) {
    if (err instanceof SealingError) throw new BadRequestError(err.message);
    throw err;
  }
}
