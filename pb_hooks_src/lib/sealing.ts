// Secrets at rest (bus seeds and signing keys, the system user's creds, overlay private keys), sealed with
// the domain's encryption key (bus.encryption_key, overlay.encryption_key) when it is set. A sealed value
// carries a marker, so a row written with a key is recognised without it and refused with a plain message
// naming the key instead of being used as garbage; enabling a key does not rewrite existing rows.

export const SEALED_PREFIX = "sealed:v1:";

export interface Cipher {
  encrypt(plain: string, key: string): string;
  decrypt(sealed: string, key: string): string;
}

export class SealingError extends Error {}

export function seal(cipher: Cipher, plain: string, key: string): string {
  return key ? SEALED_PREFIX + cipher.encrypt(plain, key) : plain;
}

/** `keyName` is the configuration key (e.g. "bus.encryption_key"); `what` names the secret (never its value). */
export function unseal(cipher: Cipher, stored: string, key: string, keyName: string, what: string): string {
  if (!stored.startsWith(SEALED_PREFIX)) return stored;
  if (!key) {
    throw new SealingError(`${what} was written with ${keyName} and cannot be read without it; set the same key`);
  }
  try {
    return cipher.decrypt(stored.slice(SEALED_PREFIX.length), key);
  } catch {
    throw new SealingError(`${what} cannot be decrypted with the configured ${keyName}; it was written with another key`);
  }
}
