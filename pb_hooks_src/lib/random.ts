/** Cryptographically random text from PocketBase's Go random source (goja has no crypto API). */
export function randomText(length: number, alphabet: string): string {
  return $security.randomStringWithAlphabet(length, alphabet);
}

const PASSWORD_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

export function randomPassword(length = 24): string {
  return randomText(length, PASSWORD_ALPHABET);
}
