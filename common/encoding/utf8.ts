// UTF-8 for certificate names and groups and for header values. goja has no TextEncoder/TextDecoder, so this is done by hand.
// Both directions are strict because Go's protobuf library refuses a proto3 string field that is not valid
// UTF-8, on marshal and on unmarshal: a lone surrogate here could never have been signed by Nebula.
import { FormatError } from "./errors";

export function utf8Encode(text: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) {
      const low = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
      if (c > 0xdbff || low < 0xdc00 || low > 0xdfff) throw new FormatError("text contains a lone surrogate");
      c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
      i++;
    }
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return new Uint8Array(out);
}

/** Decodes as Go's utf8.Valid judges: no overlong forms, no surrogate code points, nothing above U+10FFFF. */
export function utf8Decode(bytes: Uint8Array): string {
  let out = "";
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    if (b < 0x80) {
      out += String.fromCharCode(b);
      i++;
      continue;
    }
    // Continuation bytes that follow, bits of the lead byte, the smallest code point that needs this length.
    let need: number;
    let c: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) [need, c, min] = [1, b & 0x1f, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, c, min] = [2, b & 0x0f, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, c, min] = [3, b & 0x07, 0x10000];
    else throw new FormatError("text is not valid UTF-8");
    if (i + need >= bytes.length) throw new FormatError("text is not valid UTF-8");
    for (let k = 1; k <= need; k++) {
      const next = bytes[i + k];
      if ((next & 0xc0) !== 0x80) throw new FormatError("text is not valid UTF-8");
      c = (c << 6) | (next & 63);
    }
    if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) throw new FormatError("text is not valid UTF-8");
    out += String.fromCodePoint(c);
    i += need + 1;
  }
  return out;
}
