// Byte-level rules against golden vectors made by nebula v1.11.1's own cert package and Go's protobuf
// library (generator: docs/overlay-cert.md, "Golden vectors"), and the decoder's handling of odd input.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  canonicalBytes,
  certificateBytes,
  decodeCertificate,
  encodeDetails,
  fingerprint,
  signedBytes,
  type Certificate,
  type CertificateDetails,
} from "./certificate";
import { CertificateFormatError } from "./errors";
import { bytesToHex, hexToBytes } from "./hex";
import { BANNERS, certificateBytesFromPem, certificateFromPem, certificateToPem, keyFromPem, x25519PublicKeyPem } from "./pem";
import { WIRE_FIXED32, WIRE_FIXED64, WIRE_VARINT, writeBytesField, writeTag, writeVarint, type Sink } from "./protobuf";

const GOLDEN = {
  // proto.Marshal of a RawNebulaCertificateDetails with every field set, odd values included.
  fullDetails:
    "0a07686f73742dc3bc12138580a8518080fcff0f8182a0850cffffffff0f1a0980808050808080f80f220161220022076772c3bc707065288092b8c398feffffff01308780808080203a0301020340014a02deada00601",
  emptyCertificate: "0a00", // RawNebulaCertificate{Details: &RawNebulaCertificateDetails{}}
  caPem:
    "-----BEGIN NEBULA CERTIFICATE-----\nClgKCWdvbGRlbiBjYRIJgICoUYCA/P8PIgdzZXJ2ZXJzIgdkZXZpY2VzKID3xNUG\nMMCA3+sHOiB5tVYuj+ZU+UB4sRLoqYunkB+FOuaVvtfg45ELrQSWZEABEkBNJG/P\nbJTDZw6wayHqMN63z8pUWuPOV3Pp4hQhXINV48nbXaTMSHPYLPbeCXiS5uEnKaaK\nyfviVwcKOUsqdFcM\n-----END NEBULA CERTIFICATE-----\n",
  caFingerprint: "a4ffc3931c9d09616ac5030f60011c2fec318c7a290686cc4cd3415767448744",
  caKeyPem:
    "-----BEGIN NEBULA ED25519 PRIVATE KEY-----\nAQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyB5tVYuj+ZU+UB4sRLoqYun\nkB+FOuaVvtfg45ELrQSWZA==\n-----END NEBULA ED25519 PRIVATE KEY-----\n",
  hostPem:
    "-----BEGIN NEBULA CERTIFICATE-----\nCnwKCnRoaW5nLTAwMDESCYWAqFGAgPz/DxoKgI6ghQyA/v//DyIHZGV2aWNlcyiQ\nk8XVBjCw5N7rBzogoKGio6SlpqeoqaqrrK2ur7CxsrO0tba3uLm6u7y9vr9KIKT/\nw5McnQlhasUDD2ABHC/sMYx6KQaGzEzTQVdnRIdEEkA5pdVAc7jNshKZ5CHJgBak\n2xLajhWPrZ7xOwVfBG4PGb+MQBx2kABdrL7gDEsCElSACZUYwV7PvTpdu4fKbssC\n-----END NEBULA CERTIFICATE-----\n",
  hostFingerprint: "28c119e1bf412f5479dd7dc89b7b824277adaeac2239bb131b6b4c5045375266",
  hostPubPem: "-----BEGIN NEBULA X25519 PUBLIC KEY-----\noKGio6SlpqeoqaqrrK2ur7CxsrO0tba3uLm6u7y9vr8=\n-----END NEBULA X25519 PUBLIC KEY-----\n",
};

/** The golden CA key: seed 1..32, as Go's ed25519.NewKeyFromSeed made it. */
const caKey = keyFromPem(GOLDEN.caKeyPem, BANNERS.ed25519PrivateKey);
const hostPublicKey = Uint8Array.from({ length: 32 }, (_, i) => 0xa0 + i);
const NOT_BEFORE = 1790000000;
const NOT_AFTER = 2105000000;

const goldenCa: CertificateDetails = {
  name: "golden ca",
  networks: ["10.42.0.0/16"],
  groups: ["servers", "devices"],
  notBefore: NOT_BEFORE,
  notAfter: NOT_AFTER,
  publicKey: caKey.slice(32),
  isCA: true,
  issuer: "",
};

const goldenHost: CertificateDetails = {
  name: "thing-0001",
  networks: ["10.42.0.5/16"],
  unsafeNetworks: ["192.168.7.0/24"],
  groups: ["devices"],
  notBefore: NOT_BEFORE + 3600,
  notAfter: NOT_AFTER - 3600,
  publicKey: hostPublicKey,
  isCA: false,
  issuer: GOLDEN.caFingerprint,
};

const sha256hex = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");

function expectFormatError(work: () => unknown, message: RegExp): void {
  expect(work).toThrow(CertificateFormatError);
  expect(work).toThrow(message);
}

/** RawNebulaCertificate around hand-built details bytes. */
function wrap(details: Sink, signature = [1, 2, 3]): Uint8Array {
  const out: Sink = [];
  writeBytesField(out, 1, details);
  writeBytesField(out, 2, signature);
  return new Uint8Array(out);
}

/** Minimal valid host details: a name, one network, a key. */
function hostFields(): Sink {
  const d: Sink = [];
  writeBytesField(d, 1, [0x68]); // "h"
  writeBytesField(d, 2, [0x85, 0x80, 0xa8, 0x51, 0x80, 0x80, 0xfc, 0xff, 0x0f]); // 10.42.0.5, 255.255.0.0
  writeBytesField(d, 7, new Array<number>(32).fill(9));
  return d;
}

describe("encoding, byte for byte as nebula v1.11.1 writes it", () => {
  it("reproduces nebula's CA certificate PEM and fingerprint from the same details and signature", () => {
    const { signature } = certificateFromPem(GOLDEN.caPem);
    expect(certificateToPem(goldenCa, signature)).toBe(GOLDEN.caPem);
    expect(fingerprint(certificateBytes(goldenCa, signature), sha256hex)).toBe(GOLDEN.caFingerprint);
  });

  it("reproduces nebula's host certificate (unsafe networks, issuer) and fingerprint", () => {
    const { signature } = certificateFromPem(GOLDEN.hostPem);
    expect(certificateToPem(goldenHost, signature)).toBe(GOLDEN.hostPem);
    expect(fingerprint(certificateBytesFromPem(GOLDEN.hostPem), sha256hex)).toBe(GOLDEN.hostFingerprint);
  });

  it("writes key PEMs like nebula-cert", () => {
    expect(x25519PublicKeyPem(hostPublicKey)).toBe(GOLDEN.hostPubPem);
  });

  it("matches Go's protobuf on every field, odd values included (empty group, negative int64, P256, unicode)", () => {
    const details: Required<CertificateDetails> = {
      name: "host-ü",
      networks: ["10.42.0.5/16", "192.168.1.1/32"],
      unsafeNetworks: ["10.0.0.0/8"],
      groups: ["a", "", "grüppe"],
      notBefore: -62135596800,
      notAfter: 2 ** 40 + 7,
      publicKey: new Uint8Array([1, 2, 3]),
      isCA: true,
      issuer: "dead",
      curve: "P256",
    };
    const cert: Certificate = { details, signature: new Uint8Array(0) };
    expect(bytesToHex(signedBytes(cert))).toBe(GOLDEN.fullDetails);
    // And back: the same bytes read as Go reads them.
    const read = decodeCertificate(wrap(Array.from(hexToBytes(GOLDEN.fullDetails)), []));
    expect(read.details).toEqual(details);
  });

  it("always writes Details, even empty, and leaves every proto3 default out", () => {
    expect(bytesToHex(canonicalBytes({ details: emptyDetails(), signature: new Uint8Array(0) }))).toBe(GOLDEN.emptyCertificate);
    expect(bytesToHex(signedBytes({ details: emptyDetails(), signature: new Uint8Array(0) }))).toBe("");
  });

  it("writes a host with defaults in field order: no name, no issuer, no times, no isCA, no curve", () => {
    const bytes = encodeDetails({ name: "", networks: ["10.42.0.5/16"], groups: [], notBefore: 0, notAfter: 0, publicKey: new Uint8Array(32).fill(9), isCA: false, issuer: "" });
    expect(bytesToHex(bytes)).toBe("12098580a8518080fcff0f" + "3a20" + "09".repeat(32));
  });

  it("keeps the host address with its network's mask (never /32 unless asked)", () => {
    const bytes = encodeDetails({ ...goldenHost, networks: ["10.42.0.5/16"] });
    const read = decodeCertificate(wrap(Array.from(bytes)));
    expect(read.details.networks).toEqual(["10.42.0.5/16"]);
  });
});

describe("refusals when encoding", () => {
  it.each<[string, Partial<CertificateDetails>, RegExp]>([
    ["a host without a network", { networks: [] }, /needs a network/],
    ["a zero address", { networks: ["0.0.0.0/16"] }, /zero address/],
    ["a network without a mask", { networks: ["10.42.0.5"] }, /CIDR/],
    ["an IPv6 network", { networks: ["fd00::5/64"] }, /CIDR/],
    ["a short public key", { publicKey: new Uint8Array(31) }, /32 bytes, not 31/],
    ["no public key", { publicKey: new Uint8Array(0) }, /no public key/],
    ["an issuer that is not hex", { issuer: "xyz" }, /hex/],
    ["fractional seconds", { notAfter: 1.5 }, /whole unix seconds/],
    ["a lone surrogate in a group", { groups: ["\ud800"] }, /surrogate/],
  ])("refuses %s", (_, change, message) => {
    expectFormatError(() => encodeDetails({ ...goldenHost, ...change }), message);
  });

  it("refuses a certificate without a signature", () => {
    expectFormatError(() => certificateBytes(goldenHost, new Uint8Array(0)), /needs a signature/);
  });
});

describe("decoding like nebula's unmarshalCertificateV1", () => {
  it("reads nebula's own certificates back", () => {
    const ca = certificateFromPem(GOLDEN.caPem);
    expect(ca.details).toEqual({ ...goldenCa, unsafeNetworks: [], curve: "CURVE25519" });
    expect(ca.signature).toHaveLength(64);
    const host = certificateFromPem(GOLDEN.hostPem);
    expect(host.details).toEqual({ ...goldenHost, curve: "CURVE25519" });
    // Re-encoding what was read gives back the very bytes: nothing is lost or reordered.
    expect(canonicalBytes(host)).toEqual(certificateBytesFromPem(GOLDEN.hostPem));
  });

  it("skips unknown fields and fields of an unexpected wire type, and drops them when re-encoding", () => {
    const d = hostFields();
    writeTag(d, 50, WIRE_VARINT);
    writeVarint(d, 7);
    writeBytesField(d, 51, [1, 2]);
    writeTag(d, 52, WIRE_FIXED32);
    d.push(1, 2, 3, 4);
    writeTag(d, 53, WIRE_FIXED64);
    d.push(1, 2, 3, 4, 5, 6, 7, 8);
    writeTag(d, 1, WIRE_VARINT); // Name as a varint: unknown to Go, not an error
    writeVarint(d, 5);
    const cert = decodeCertificate(wrap(d));
    expect(cert.details.name).toBe("h");
    expect(canonicalBytes(cert)).toEqual(wrap(hostFields()));
  });

  it("reads repeated numbers unpacked as well as packed", () => {
    const d: Sink = [];
    writeTag(d, 2, WIRE_VARINT);
    writeVarint(d, 0x0a2a0005);
    writeTag(d, 2, WIRE_VARINT);
    writeVarint(d, 0xffff0000);
    writeBytesField(d, 7, new Array<number>(32).fill(9));
    expect(decodeCertificate(wrap(d)).details.networks).toEqual(["10.42.0.5/16"]);
  });

  it("merges a Details field that occurs twice, as protobuf merges messages", () => {
    const out: Sink = [];
    writeBytesField(out, 1, [0x0a, 0x01, 0x68]); // Name "h"
    writeBytesField(out, 2, [9]);
    writeBytesField(out, 1, hostFields().slice(3)); // the network and the key
    const cert = decodeCertificate(new Uint8Array(out));
    expect(cert.details.name).toBe("h");
    expect(cert.details.networks).toEqual(["10.42.0.5/16"]);
  });

  it("reads a mask that is not ones-then-zeros as /0, as nebula does", () => {
    const d: Sink = [];
    writeBytesField(d, 2, [0x85, 0x80, 0xa8, 0x51, 0x80, 0xfe, 0x83, 0xf8, 0x0f]); // mask 0xff00ff00
    writeBytesField(d, 7, new Array<number>(32).fill(9));
    expect(decodeCertificate(wrap(d)).details.networks).toEqual(["10.42.0.5/0"]);
  });

  it("reads a 10-byte varint of a negative time", () => {
    const cert = decodeCertificate(wrap(Array.from(hexToBytes(GOLDEN.fullDetails))));
    expect(cert.details.notBefore).toBe(-62135596800);
  });

  it.each<[string, Sink, RegExp]>([
    ["no bytes", [], /empty certificate/],
    ["no Details field", [0x12, 0x01, 0x01], /no details/],
    ["a truncated field", [0x0a, 0x05, 0x0a], /truncated/],
    ["a truncated varint", [0x0a, 0x02, 0x28, 0x80], /truncated varint/],
    ["an 11-byte varint", [0x0a, 0x0c, 0x28, ...new Array<number>(10).fill(0x80), 0x01], /overflows/],
    ["a 10th varint byte above 1", [0x0a, 0x0b, 0x28, ...new Array<number>(9).fill(0x80), 0x02], /overflows/],
    ["field number 0", [0x02, 0x00], /field number/],
    ["a group", [0x0b], /wire type 3/],
  ])("refuses %s", (_, bytes, message) => {
    expectFormatError(() => decodeCertificate(new Uint8Array(bytes)), message);
  });

  it.each<[string, (d: Sink) => void, RegExp]>([
    ["an odd number of IPs", (d) => writeBytesField(d, 2, [1]), /pairs/],
    ["an odd number of subnets", (d) => writeBytesField(d, 3, [1, 2, 3]), /pairs/],
    ["a name that is not UTF-8", (d) => writeBytesField(d, 1, [0xff]), /UTF-8/],
    ["a group that is not UTF-8", (d) => writeBytesField(d, 4, [0xc0, 0x80]), /UTF-8/],
    ["an unknown curve", (d) => (writeTag(d, 100, WIRE_VARINT), writeVarint(d, 7)), /curve/],
    ["a zero address", (d) => writeBytesField(d, 2, [0, 0x80, 0x80, 0xfc, 0xff, 0x0f]), /zero address/],
  ])("refuses %s", (_, add, message) => {
    const d = hostFields();
    add(d);
    expectFormatError(() => decodeCertificate(wrap(d)), message);
  });

  it("refuses a host without a network and any certificate without a key", () => {
    const noNetwork: Sink = [];
    writeBytesField(noNetwork, 7, [1]);
    expectFormatError(() => decodeCertificate(wrap(noNetwork)), /needs a network/);
    expectFormatError(() => decodeCertificate(wrap([0x40, 0x01])), /no public key/);
  });

  it("keeps WIRE_BYTES fields of the outer message only (a varint Signature is ignored)", () => {
    const out: Sink = [];
    writeBytesField(out, 1, hostFields());
    writeTag(out, 2, WIRE_VARINT);
    writeVarint(out, 1);
    expect(decodeCertificate(new Uint8Array(out)).signature).toHaveLength(0);
  });
});

describe("fingerprint", () => {
  it("hashes nebula's re-encoding, not the stored bytes", () => {
    const reordered: Sink = [];
    writeBytesField(reordered, 2, [7, 7]); // Signature first
    writeBytesField(reordered, 1, hostFields());
    const canonical = wrap(hostFields(), [7, 7]);
    expect(fingerprint(new Uint8Array(reordered), sha256hex)).toBe(sha256hex(canonical));
  });

  it("lowercases the injected hash and refuses one that is not 64 hex digits", () => {
    const bytes = certificateBytesFromPem(GOLDEN.caPem);
    expect(fingerprint(bytes, (d) => sha256hex(d).toUpperCase())).toBe(GOLDEN.caFingerprint);
    expect(() => fingerprint(bytes, () => "abc")).toThrow(/64 hex digits/);
  });
});

function emptyDetails(): Required<CertificateDetails> {
  return { name: "", networks: [], unsafeNetworks: [], groups: [], notBefore: 0, notAfter: 0, publicKey: new Uint8Array(0), isCA: false, issuer: "", curve: "CURVE25519" };
}
