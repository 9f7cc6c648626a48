// Nebula v1 certificate format: pure encoding and decoding for hooks (goja) and Node alike. No crypto here:
// the sidecar signs the bytes of encodeDetails(), and hashing is injected (see Sha256Hex). docs/overlay-cert.md.
export { CertificateFormatError } from "./errors";
export {
  canonicalBytes,
  certificateBytes,
  decodeCertificate,
  encodeDetails,
  fingerprint,
  signedBytes,
  type Certificate,
  type CertificateDetails,
  type Curve,
  type Sha256Hex,
} from "./certificate";
export {
  BANNERS,
  certificateBytesFromPem,
  certificateFromPem,
  certificateToPem,
  certificatesFromPem,
  ed25519PrivateKeyPem,
  keyFromPem,
  pemDecodeAll,
  pemDecodeOne,
  pemEncode,
  x25519PrivateKeyPem,
  x25519PublicKeyPem,
  type KeyBanner,
  type PemBlock,
} from "./pem";
export { base64Decode, base64Encode } from "../../../common/encoding/base64";
export { bytesToHex, hexToBytes } from "./hex";
