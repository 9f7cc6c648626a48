// PEM as Go's encoding/pem writes it (64 base64 characters a line, "\n" endings, no headers) with Nebula's
// banners, plus readers for the certificate and key blocks that Nebula configs and nebula-cert files hold.
import { base64Decode, base64Encode } from "../../../common/encoding/base64";
import { certificateBytes, decodeCertificate, type Certificate, type CertificateDetails } from "./certificate";
import { CertificateFormatError } from "./errors";

export const BANNERS = {
  certificate: "NEBULA CERTIFICATE",
  /** Written by nebula-cert >= 1.10 unless told `-version 1`; this module does not read it. */
  certificateV2: "NEBULA CERTIFICATE V2",
  /** 64 bytes, Go's ed25519.PrivateKey: the 32-byte seed followed by the 32-byte public key. */
  ed25519PrivateKey: "NEBULA ED25519 PRIVATE KEY",
  x25519PrivateKey: "NEBULA X25519 PRIVATE KEY",
  x25519PublicKey: "NEBULA X25519 PUBLIC KEY",
} as const;

export type KeyBanner = typeof BANNERS.ed25519PrivateKey | typeof BANNERS.x25519PrivateKey | typeof BANNERS.x25519PublicKey;

export interface PemBlock {
  banner: string;
  bytes: Uint8Array;
}

const LINE = 64;
// BEGIN line, body, END line. Headers (RFC 1421 "Key: value" lines) are not matched: Nebula writes none.
const BLOCK = /-----BEGIN ([^\r\n-]+)-----[ \t]*\r?\n([A-Za-z0-9+/=\s]*?)-----END ([^\r\n-]+)-----[ \t]*(?:\r?\n|$)/g;

export function pemEncode(banner: string, bytes: Uint8Array): string {
  const body = base64Encode(bytes);
  let out = `-----BEGIN ${banner}-----\n`;
  for (let i = 0; i < body.length; i += LINE) out += body.slice(i, i + LINE) + "\n";
  return out + `-----END ${banner}-----\n`;
}

/**
 * Every block in `text`, in order. Stricter than Go's pem.Decode on purpose: anything but whitespace
 * between or around blocks is an error instead of being skipped, so a truncated or pasted-over file fails.
 */
export function pemDecodeAll(text: string): PemBlock[] {
  const blocks: PemBlock[] = [];
  let last = 0;
  BLOCK.lastIndex = 0;
  for (let m = BLOCK.exec(text); m !== null; m = BLOCK.exec(text)) {
    if (text.slice(last, m.index).trim() !== "") throw new CertificateFormatError("text outside a PEM block");
    const [, banner, body, endBanner] = m;
    if (banner !== endBanner) throw new CertificateFormatError(`PEM block BEGIN ${banner} ends with END ${endBanner}`);
    if (body !== "" && !body.endsWith("\n")) throw new CertificateFormatError("PEM END line does not start a line");
    blocks.push({ banner, bytes: base64Decode(body.replace(/\s+/g, "")) });
    last = BLOCK.lastIndex;
  }
  if (text.slice(last).trim() !== "") throw new CertificateFormatError("text outside a PEM block");
  return blocks;
}

/** The bytes of the one block in `text`, which must carry `banner`. */
export function pemDecodeOne(text: string, banner: string): Uint8Array {
  const blocks = pemDecodeAll(text);
  if (blocks.length !== 1) throw new CertificateFormatError(`expected one PEM block, found ${blocks.length}`);
  if (blocks[0].banner !== banner) throw new CertificateFormatError(bannerMismatch(blocks[0].banner, banner));
  return blocks[0].bytes;
}

export function certificateToPem(details: CertificateDetails, signature: Uint8Array): string {
  return pemEncode(BANNERS.certificate, certificateBytes(details, signature));
}

/** The raw bytes of one v1 certificate PEM, e.g. for fingerprint(). */
export function certificateBytesFromPem(text: string): Uint8Array {
  return pemDecodeOne(text, BANNERS.certificate);
}

export function certificateFromPem(text: string): Certificate {
  return decodeCertificate(certificateBytesFromPem(text));
}

/** A CA bundle (Nebula's pki.ca may list several CAs, e.g. during a rotation): every block a v1 certificate. */
export function certificatesFromPem(text: string): Certificate[] {
  return pemDecodeAll(text).map((b) => {
    if (b.banner !== BANNERS.certificate) throw new CertificateFormatError(bannerMismatch(b.banner, BANNERS.certificate));
    return decodeCertificate(b.bytes);
  });
}

/** The CA signing key as nebula-cert reads it (`-ca-key`, 64 bytes): seed then public key. */
export function ed25519PrivateKeyPem(seed: Uint8Array, publicKey: Uint8Array): string {
  checkLength(seed, 32, "ed25519 seed");
  checkLength(publicKey, 32, "ed25519 public key");
  const key = new Uint8Array(64);
  key.set(seed, 0);
  key.set(publicKey, 32);
  return pemEncode(BANNERS.ed25519PrivateKey, key);
}

/** A host key for `pki.key` (raw 32-byte X25519 private key). */
export function x25519PrivateKeyPem(key: Uint8Array): string {
  checkLength(key, 32, "X25519 private key");
  return pemEncode(BANNERS.x25519PrivateKey, key);
}

/** A host public key as `nebula-cert keygen -out-pub` writes it (for `nebula-cert sign -in-pub`). */
export function x25519PublicKeyPem(key: Uint8Array): string {
  checkLength(key, 32, "X25519 public key");
  return pemEncode(BANNERS.x25519PublicKey, key);
}

/** Reads one key block, checking banner and length as Nebula does (64 for ed25519 private, else 32). */
export function keyFromPem(text: string, banner: KeyBanner): Uint8Array {
  const bytes = pemDecodeOne(text, banner);
  checkLength(bytes, banner === BANNERS.ed25519PrivateKey ? 64 : 32, banner.toLowerCase());
  return bytes;
}

function checkLength(bytes: Uint8Array, length: number, what: string): void {
  if (bytes.length !== length) throw new CertificateFormatError(`${what} must be ${length} bytes, not ${bytes.length}`);
}

function bannerMismatch(found: string, wanted: string): string {
  if (found === BANNERS.certificateV2) return "a v2 Nebula certificate (NEBULA CERTIFICATE V2): only v1 is supported";
  return `expected a ${wanted} PEM block, found ${found}`;
}
