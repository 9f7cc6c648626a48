// PEM framing as Go's encoding/pem writes it, and what the reader accepts and refuses.
import { describe, expect, it } from "vitest";
import { CertificateFormatError } from "./errors";
import {
  BANNERS,
  certificatesFromPem,
  ed25519PrivateKeyPem,
  keyFromPem,
  pemDecodeAll,
  pemDecodeOne,
  pemEncode,
  x25519PrivateKeyPem,
  x25519PublicKeyPem,
} from "./pem";

const filled = (n: number, v = 7) => new Uint8Array(n).fill(v);

describe("pemEncode", () => {
  it("writes 64 characters a line with \\n endings, and no body line for no bytes", () => {
    expect(pemEncode("X", new Uint8Array(0))).toBe("-----BEGIN X-----\n-----END X-----\n");
    const lines = pemEncode("X", filled(49)).split("\n");
    expect(lines.map((l) => l.length)).toEqual([17, 64, 4, 15, 0]);
    expect(pemEncode("X", filled(48)).split("\n")).toHaveLength(4);
  });

  it("writes key blocks under nebula's banners and refuses wrong lengths", () => {
    expect(ed25519PrivateKeyPem(filled(32, 1), filled(32, 2))).toMatch(/^-----BEGIN NEBULA ED25519 PRIVATE KEY-----\n/);
    expect(keyFromPem(ed25519PrivateKeyPem(filled(32, 1), filled(32, 2)), BANNERS.ed25519PrivateKey)).toEqual(new Uint8Array([...filled(32, 1), ...filled(32, 2)]));
    expect(keyFromPem(x25519PrivateKeyPem(filled(32)), BANNERS.x25519PrivateKey)).toEqual(filled(32));
    expect(keyFromPem(x25519PublicKeyPem(filled(32)), BANNERS.x25519PublicKey)).toEqual(filled(32));
    expect(() => ed25519PrivateKeyPem(filled(64), filled(32))).toThrow(/seed must be 32 bytes/);
    expect(() => x25519PrivateKeyPem(filled(31))).toThrow(CertificateFormatError);
    expect(() => keyFromPem(pemEncode(BANNERS.ed25519PrivateKey, filled(32)), BANNERS.ed25519PrivateKey)).toThrow(/64 bytes, not 32/);
    expect(() => keyFromPem(x25519PublicKeyPem(filled(32)), BANNERS.x25519PrivateKey)).toThrow(/expected a NEBULA X25519 PRIVATE KEY/);
  });
});

describe("pemDecodeAll", () => {
  it("reads several blocks in order, with CRLF, trailing blanks and surrounding whitespace", () => {
    const text = "\n  " + pemEncode("A", filled(10, 1)).replace(/\n/g, "\r\n") + "\n" + pemEncode("B", filled(70, 2)).replace("-----\n", "-----  \n") + "\n\n";
    expect(pemDecodeAll(text)).toEqual([
      { banner: "A", bytes: filled(10, 1) },
      { banner: "B", bytes: filled(70, 2) },
    ]);
    expect(pemDecodeAll("")).toEqual([]);
  });

  it.each([
    ["text before a block", "junk\n" + pemEncode("A", filled(3))],
    ["text after a block", pemEncode("A", filled(3)) + "junk"],
    ["a truncated block", pemEncode("A", filled(3)).slice(0, -10)],
    ["a different END banner", pemEncode("A", filled(3)).replace("END A", "END B")],
    ["a header line", pemEncode("A", filled(3)).replace("-----\n", "-----\nProc-Type: 4,ENCRYPTED\n")],
    ["bad base64", pemEncode("A", filled(3)).replace("BwcH", "BwcH=")],
    ["an END marker inside a line", "-----BEGIN A-----\nBwcH-----END A-----\n"],
  ])("refuses %s", (_, text) => {
    expect(() => pemDecodeAll(text)).toThrow(CertificateFormatError);
  });

  it("names a v2 certificate when a v1 one was wanted", () => {
    const v2 = pemEncode(BANNERS.certificateV2, filled(3));
    expect(() => pemDecodeOne(v2, BANNERS.certificate)).toThrow(/v2 Nebula certificate.*only v1/);
    expect(() => certificatesFromPem(v2)).toThrow(/v2 Nebula certificate/);
    expect(() => pemDecodeOne(v2 + v2, BANNERS.certificateV2)).toThrow(/one PEM block, found 2/);
  });
});
