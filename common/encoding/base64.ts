// Standard base64 with padding (RFC 4648 section 4), as Go's encoding/pem writes PEM bodies. goja has no
// atob/btoa and Buffer there is not Node's, so the module carries its own.
import { FormatError } from "./errors";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

export function base64Encode(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const rest = bytes.length - i;
    const n = (bytes[i] << 16) | ((rest > 1 ? bytes[i + 1] : 0) << 8) | (rest > 2 ? bytes[i + 2] : 0);
    out += ALPHABET[(n >> 18) & 63] + ALPHABET[(n >> 12) & 63];
    out += rest > 1 ? ALPHABET[(n >> 6) & 63] : "=";
    out += rest > 2 ? ALPHABET[n & 63] : "=";
  }
  return out;
}

/**
 * Decodes what Go's base64.StdEncoding accepts once whitespace is gone: padding required, '=' only at the end.
 * Like Go (which is not in Strict mode) it ignores set bits after the last whole byte.
 */
export function base64Decode(text: string): Uint8Array {
  if (text.length % 4 !== 0) throw new FormatError("base64 length is not a multiple of 4");
  const pad = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0;
  const out = new Uint8Array((text.length / 4) * 3 - pad);
  let o = 0;
  for (let i = 0; i < text.length; i += 4) {
    let n = 0;
    for (let k = 0; k < 4; k++) {
      const ch = text[i + k];
      const inPadding = i + k >= text.length - pad;
      const v = inPadding && ch === "=" ? 0 : ALPHABET.indexOf(ch);
      if (v < 0) throw new FormatError("invalid base64 character");
      n = (n << 6) | v;
    }
    out[o++] = (n >> 16) & 255;
    if (o < out.length) out[o++] = (n >> 8) & 255;
    if (o < out.length) out[o++] = n & 255;
  }
  return out;
}
