// Sealing of bus secrets with bus.encryption_key through PocketBase's AES-GCM ($security).
import { currentConfig } from "../config/runtime";
import { seal, unseal, type Cipher } from "./sealing";

const cipher: Cipher = {
  encrypt: (plain, key) => $security.encrypt(plain, key),
  decrypt: (sealed, key) => toString($security.decrypt(sealed, key)),
};

export function sealSecret(plain: string): string {
  return seal(cipher, plain, currentConfig().bus.encryption_key);
}

export function unsealSecret(stored: string, what: string): string {
  return unseal(cipher, stored, currentConfig().bus.encryption_key, what);
}
