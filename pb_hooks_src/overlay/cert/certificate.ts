// Nebula v1 certificates (cert_v1.proto of slackhq/nebula v1.11.1): RawNebulaCertificate {Details = 1,
// Signature = 2} around RawNebulaCertificateDetails. Encoding mirrors Go's proto.Marshal byte for byte
// (fields in number order, proto3 defaults left out, repeated uint32 packed), because Nebula checks the
// signature against its own re-encoding of the parsed details and hashes its own re-encoding of the whole
// certificate for the fingerprint. Signing and hashing are the caller's (the sidecar signs; see Sha256Hex).
import { CertificateFormatError } from "./errors";
import { bytesToHex, hexToBytes } from "./hex";
import { bitsOf, formatNetwork, maskOf, parseNetwork } from "./ipv4";
import {
  WIRE_BYTES,
  WIRE_VARINT,
  readFields,
  readPackedVarints,
  writeBytesField,
  writeInt64,
  writePackedVarints,
  writeTag,
  writeVarint,
  type Sink,
} from "./protobuf";
import { utf8Decode, utf8Encode } from "../../../common/encoding/utf8";

export type Curve = "CURVE25519" | "P256";

export interface CertificateDetails {
  /** Host or CA name. Nebula allows an empty one. */
  name: string;
  /** IPv4 CIDR, the host's address with its overlay network's mask ("10.42.0.5/16"). A host has one. */
  networks: string[];
  /** Routes the host may act as a gateway for (Nebula's "unsafe_routes"), same notation. */
  unsafeNetworks?: string[];
  groups: string[];
  /** Unix seconds. */
  notBefore: number;
  notAfter: number;
  /** Host: the 32-byte X25519 public key. CA: the 32-byte ed25519 public key. */
  publicKey: Uint8Array;
  isCA: boolean;
  /** Lowercase hex fingerprint of the signing CA certificate; "" on a (self-signed) CA. */
  issuer: string;
  /** Default CURVE25519, which v1 certificates express by leaving the field out. */
  curve?: Curve;
}

/** A certificate as read back: every field present. */
export interface Certificate {
  details: Required<CertificateDetails>;
  signature: Uint8Array;
}

/**
 * SHA-256 of raw bytes as 64 hex digits. Injected because goja has no byte hash: PocketBase's
 * $security.sha256 takes a string and hashes its UTF-8 form, which is not binary-safe. Callers pass a
 * sidecar call or a pure-JS hash in hooks, node:crypto in Node.
 */
export type Sha256Hex = (data: Uint8Array) => string;

// Field numbers of RawNebulaCertificateDetails and RawNebulaCertificate.
const F_NAME = 1;
const F_IPS = 2;
const F_SUBNETS = 3;
const F_GROUPS = 4;
const F_NOT_BEFORE = 5;
const F_NOT_AFTER = 6;
const F_PUBLIC_KEY = 7;
const F_IS_CA = 8;
const F_ISSUER = 9;
const F_CURVE = 100;
const F_DETAILS = 1;
const F_SIGNATURE = 2;

const CURVES: Curve[] = ["CURVE25519", "P256"]; // index = enum number
const PUBLIC_KEY_LENGTH: Record<Curve, number> = { CURVE25519: 32, P256: 65 };

/**
 * The bytes the CA signs (ed25519 over exactly these, for CURVE25519). Refuses details that Nebula would
 * refuse to load, and key lengths that cannot be right, so a bad certificate fails here and not on a device.
 */
export function encodeDetails(details: CertificateDetails): Uint8Array {
  const full = withDefaults(details);
  checkLikeNebula(full);
  if (full.publicKey.length !== PUBLIC_KEY_LENGTH[full.curve]) {
    throw new CertificateFormatError(`a ${full.curve} public key has ${PUBLIC_KEY_LENGTH[full.curve]} bytes, not ${full.publicKey.length}`);
  }
  hexToBytes(full.issuer); // throws on bad hex; Go would silently keep a prefix of it
  return new Uint8Array(detailsSink(full));
}

/** The whole certificate, what a NEBULA CERTIFICATE PEM block carries. */
export function certificateBytes(details: CertificateDetails, signature: Uint8Array): Uint8Array {
  if (signature.length === 0) throw new CertificateFormatError("a certificate needs a signature");
  const out: Sink = [];
  writeBytesField(out, F_DETAILS, encodeDetails(details));
  writeBytesField(out, F_SIGNATURE, signature);
  return new Uint8Array(out);
}

/**
 * Nebula's fingerprint: SHA-256 hex of the certificate as Nebula re-encodes it after parsing (not of the
 * bytes as stored; for bytes from certificateBytes or nebula-cert the two are the same). Throws
 * CertificateFormatError when Nebula could not read the certificate either.
 */
export function fingerprint(certBytes: Uint8Array, sha256hex: Sha256Hex): string {
  const digest = sha256hex(canonicalBytes(decodeCertificate(certBytes))).toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(digest)) throw new Error("the injected sha256 did not return 64 hex digits");
  return digest;
}

/** What Nebula's Marshal() gives for a parsed certificate: the input of the fingerprint. */
export function canonicalBytes(cert: Certificate): Uint8Array {
  const out: Sink = [];
  writeBytesField(out, F_DETAILS, detailsSink(cert.details));
  if (cert.signature.length > 0) writeBytesField(out, F_SIGNATURE, cert.signature);
  return new Uint8Array(out);
}

/** What Nebula checks a parsed certificate's signature against (its re-encoded details). */
export function signedBytes(cert: Certificate): Uint8Array {
  return new Uint8Array(detailsSink(cert.details));
}

/**
 * Reads a v1 certificate as Nebula's unmarshalCertificateV1 does: unknown fields and fields of an
 * unexpected wire type are skipped, repeated numbers may be packed or not, a repeated Details field is
 * merged, and the same validation applies (a public key, a network on a host, no 0.0.0.0, whole pairs).
 */
export function decodeCertificate(bytes: Uint8Array): Certificate {
  if (bytes.length === 0) throw new CertificateFormatError("empty certificate");
  const detailChunks: Uint8Array[] = [];
  let signature = new Uint8Array(0);
  for (const f of readFields(bytes)) {
    if (f.wire !== WIRE_BYTES) continue;
    if (f.field === F_DETAILS) detailChunks.push(f.bytes);
    else if (f.field === F_SIGNATURE) signature = f.bytes.slice();
  }
  if (detailChunks.length === 0) throw new CertificateFormatError("certificate has no details");
  const details = decodeDetails(concat(detailChunks));
  checkLikeNebula(details);
  return { details, signature };
}

function decodeDetails(bytes: Uint8Array): Required<CertificateDetails> {
  const d: Required<CertificateDetails> = {
    name: "",
    networks: [],
    unsafeNetworks: [],
    groups: [],
    notBefore: 0,
    notAfter: 0,
    publicKey: new Uint8Array(0),
    isCA: false,
    issuer: "",
    curve: "CURVE25519",
  };
  const ips: number[] = [];
  const subnets: number[] = [];
  for (const f of readFields(bytes)) {
    if (f.wire === WIRE_VARINT) {
      const v = f.value;
      if (f.field === F_IPS) ips.push(Number(BigInt.asUintN(32, v)));
      else if (f.field === F_SUBNETS) subnets.push(Number(BigInt.asUintN(32, v)));
      else if (f.field === F_NOT_BEFORE) d.notBefore = int64(v);
      else if (f.field === F_NOT_AFTER) d.notAfter = int64(v);
      else if (f.field === F_IS_CA) d.isCA = v !== BigInt(0);
      else if (f.field === F_CURVE) d.curve = curveOf(Number(BigInt.asIntN(32, v)));
    } else if (f.wire === WIRE_BYTES) {
      const b = f.bytes;
      if (f.field === F_NAME) d.name = utf8Decode(b);
      else if (f.field === F_IPS) for (const v of readPackedVarints(b)) ips.push(Number(BigInt.asUintN(32, v)));
      else if (f.field === F_SUBNETS) for (const v of readPackedVarints(b)) subnets.push(Number(BigInt.asUintN(32, v)));
      else if (f.field === F_GROUPS) d.groups.push(utf8Decode(b));
      else if (f.field === F_PUBLIC_KEY) d.publicKey = b.slice();
      else if (f.field === F_ISSUER) d.issuer = bytesToHex(b);
    }
  }
  d.networks = pairsToNetworks(ips, "IPs");
  d.unsafeNetworks = pairsToNetworks(subnets, "subnets");
  return d;
}

function detailsSink(d: Required<CertificateDetails>): Sink {
  const out: Sink = [];
  if (d.name !== "") writeBytesField(out, F_NAME, utf8Encode(d.name));
  if (d.networks.length > 0) writePackedVarints(out, F_IPS, networksToPairs(d.networks));
  if (d.unsafeNetworks.length > 0) writePackedVarints(out, F_SUBNETS, networksToPairs(d.unsafeNetworks));
  // Each element is written, empty strings included: only a singular proto3 field drops its default.
  for (const g of d.groups) writeBytesField(out, F_GROUPS, utf8Encode(g));
  if (d.notBefore !== 0) {
    writeTag(out, F_NOT_BEFORE, WIRE_VARINT);
    writeInt64(out, d.notBefore);
  }
  if (d.notAfter !== 0) {
    writeTag(out, F_NOT_AFTER, WIRE_VARINT);
    writeInt64(out, d.notAfter);
  }
  if (d.publicKey.length > 0) writeBytesField(out, F_PUBLIC_KEY, d.publicKey);
  if (d.isCA) {
    writeTag(out, F_IS_CA, WIRE_VARINT);
    writeVarint(out, 1);
  }
  const issuer = hexToBytes(d.issuer);
  if (issuer.length > 0) writeBytesField(out, F_ISSUER, issuer);
  const curve = CURVES.indexOf(d.curve);
  if (curve !== 0) {
    writeTag(out, F_CURVE, WIRE_VARINT);
    writeVarint(out, curve);
  }
  return out;
}

/** Nebula's certificateV1.validate(), which runs on every unmarshal and every signing. */
function checkLikeNebula(d: Required<CertificateDetails>): void {
  if (d.publicKey.length === 0) throw new CertificateFormatError("certificate has no public key");
  if (!d.isCA && d.networks.length === 0) throw new CertificateFormatError("a host certificate needs a network");
  for (const n of d.networks) {
    if (parseNetwork(n).ip === 0) throw new CertificateFormatError(`a network may not use the zero address: ${n}`);
  }
  for (const n of d.unsafeNetworks) parseNetwork(n);
  for (const t of [d.notBefore, d.notAfter]) {
    if (!Number.isSafeInteger(t)) throw new CertificateFormatError(`times are whole unix seconds, not ${t}`);
  }
  if (CURVES.indexOf(d.curve) < 0) throw new CertificateFormatError(`unknown curve ${String(d.curve)}`);
}

function withDefaults(d: CertificateDetails): Required<CertificateDetails> {
  return { ...d, unsafeNetworks: d.unsafeNetworks ?? [], curve: d.curve ?? "CURVE25519" };
}

function networksToPairs(networks: string[]): number[] {
  const pairs: number[] = [];
  for (const n of networks) {
    const { ip, bits } = parseNetwork(n);
    pairs.push(ip, maskOf(bits));
  }
  return pairs;
}

function pairsToNetworks(values: number[], what: string): string[] {
  if (values.length % 2 !== 0) throw new CertificateFormatError(`encoded ${what} should be in pairs, an odd number was found`);
  const networks: string[] = [];
  for (let i = 0; i < values.length; i += 2) networks.push(formatNetwork(values[i], bitsOf(values[i + 1])));
  return networks;
}

function int64(v: bigint): number {
  const n = Number(BigInt.asIntN(64, v));
  if (!Number.isSafeInteger(n)) throw new CertificateFormatError("certificate time beyond the exact range of a JS number");
  return n;
}

function curveOf(n: number): Curve {
  const curve = CURVES[n];
  if (curve === undefined) throw new CertificateFormatError(`unknown curve number ${n}`);
  return curve;
}

function concat(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let pos = 0;
  for (const c of chunks) {
    out.set(c, pos);
    pos += c.length;
  }
  return out;
}
