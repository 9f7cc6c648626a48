// The hand-written codecs (goja has none) against Node's own, and their refusals.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { base64Decode, base64Encode } from "../../../common/encoding/base64";
import { CertificateFormatError } from "./errors";
import { bytesToHex, hexToBytes } from "./hex";
import { bitsOf, formatNetwork, maskOf, parseNetwork } from "./ipv4";
import { utf8Decode, utf8Encode } from "../../../common/encoding/utf8";

const bytes = (...b: number[]) => new Uint8Array(b);

describe("base64", () => {
  it("matches Node's for every length from 0 to 200", () => {
    for (let n = 0; n <= 200; n++) {
      const data = randomBytes(n);
      const text = base64Encode(new Uint8Array(data));
      expect(text).toBe(data.toString("base64"));
      expect(Buffer.from(base64Decode(text))).toEqual(data);
    }
  });

  it("ignores set bits after the last byte, as Go's non-strict StdEncoding does", () => {
    expect(base64Decode("/w==")).toEqual(bytes(0xff));
    expect(base64Decode("/x==")).toEqual(bytes(0xff));
  });

  it.each(["A", "AAA", "AAAAA", "A===", "====", "AA=A", "A*AA", "AAAA AAAA"])("refuses %j", (text) => {
    expect(() => base64Decode(text)).toThrow(CertificateFormatError);
  });
});

describe("utf8", () => {
  it.each(["", "plain", "host-ü", "grüppe €", "日本", "emoji 😀 x", "\u0000\u007f\u0080\u07ff\u0800\uffff"])("matches Node's for %j", (text) => {
    const encoded = utf8Encode(text);
    expect(Buffer.from(encoded)).toEqual(Buffer.from(text, "utf8"));
    expect(utf8Decode(encoded)).toBe(text);
  });

  it.each(["\ud800", "a\udc00b", "\ud83d"])("refuses to encode a lone surrogate (%#)", (text) => {
    expect(() => utf8Encode(text)).toThrow(CertificateFormatError);
  });

  it.each([
    ["an overlong NUL", [0xc0, 0x80]],
    ["an overlong slash", [0xe0, 0x80, 0xaf]],
    ["an encoded surrogate", [0xed, 0xa0, 0x80]],
    ["a code point above U+10FFFF", [0xf4, 0x90, 0x80, 0x80]],
    ["a lead byte 0xf5", [0xf5, 0x80, 0x80, 0x80]],
    ["a stray continuation byte", [0x80]],
    ["a truncated sequence", [0xe2, 0x82]],
    ["a missing continuation", [0xc3, 0x41]],
  ])("refuses to decode %s", (_, b) => {
    expect(() => utf8Decode(new Uint8Array(b))).toThrow(CertificateFormatError);
  });
});

describe("hex", () => {
  it("writes lowercase and reads either case", () => {
    expect(bytesToHex(bytes(0, 0x0f, 0xab, 0xff))).toBe("000fabff");
    expect(hexToBytes("000FabFF")).toEqual(bytes(0, 0x0f, 0xab, 0xff));
    expect(hexToBytes("")).toEqual(bytes());
  });

  it.each(["abc", "zz", "0x00", " 00"])("refuses %j", (text) => {
    expect(() => hexToBytes(text)).toThrow(CertificateFormatError);
  });
});

describe("ipv4 networks", () => {
  it("keeps the host address and the network's mask", () => {
    expect(parseNetwork("10.42.0.5/16")).toEqual({ ip: 0x0a2a0005, bits: 16 });
    expect(maskOf(16)).toBe(0xffff0000);
    expect(formatNetwork(0x0a2a0005, 16)).toBe("10.42.0.5/16");
    expect(parseNetwork("255.255.255.255/32")).toEqual({ ip: 0xffffffff, bits: 32 });
  });

  it("maps every prefix length to Go's net.CIDRMask and back", () => {
    for (let bits = 0; bits <= 32; bits++) {
      const mask = maskOf(bits);
      const expected = bits === 0 ? 0 : Number((BigInt(0xffffffff) << BigInt(32 - bits)) & BigInt(0xffffffff));
      expect(mask).toBe(expected);
      expect(bitsOf(mask)).toBe(bits);
    }
  });

  it("reads a mask that is not ones-then-zeros as /0, like Go's net.IPMask.Size", () => {
    expect(bitsOf(0xff00ff00)).toBe(0);
  });

  it.each(["10.42.0.5", "10.42.0.5/", "10.42.0.5/33", "10.042.0.5/16", "10.42.0.5/016", "256.1.1.1/8", "1.2.3/8", "::1/64", " 10.42.0.5/16"])(
    "refuses %j",
    (text) => {
      expect(() => parseNetwork(text)).toThrow(CertificateFormatError);
    },
  );
});
