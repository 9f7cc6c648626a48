// Hex text as Go's encoding/hex writes it (lowercase) and reads it (either case, even length).
import { CertificateFormatError } from "./errors";

const DIGITS = "0123456789abcdef";

export function bytesToHex(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i++) out += DIGITS[bytes[i] >> 4] + DIGITS[bytes[i] & 15];
  return out;
}

export function hexToBytes(hex: string): Uint8Array {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) throw new CertificateFormatError("not an even-length hex string");
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
  return out;
}
