// The nkeys text encoding (github.com/nats-io/nkeys): one or two prefix bytes naming the key's role, the
// 32 raw key bytes, a CRC16 of both little-endian, all in unpadded RFC 4648 base32. The keys themselves
// come from node:crypto (ed25519.ts); @nats-io/nkeys would generate and derive them with tweetnacl.
import { HttpError } from "./errors";
import type { NkeyType } from "../common/sidecar/protocol";

// Role prefix bytes (the first base32 letter is the role's letter).
const PREFIX: Readonly<Record<NkeyType | "seed", number>> = {
  seed: 18 << 3, // S
  operator: 14 << 3, // O
  server: 13 << 3, // N
  cluster: 2 << 3, // C
  account: 0, // A
  user: 20 << 3, // U
};

export const NKEY_ROLES: readonly NkeyType[] = ["operator", "account", "user", "cluster", "server"];

const ROLE_OF_PREFIX = new Map<number, NkeyType>(NKEY_ROLES.map((role) => [PREFIX[role], role]));

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export function base32Encode(bytes: Uint8Array): string {
  let out = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += ALPHABET[(buffer >>> bits) & 31];
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

/** Undefined for a character outside the alphabet. */
export function base32Decode(text: string): Uint8Array | undefined {
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of text) {
    const value = ALPHABET.indexOf(char);
    if (value < 0) return undefined;
    buffer = (buffer << 5) | value;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out.push((buffer >>> bits) & 0xff);
    }
    buffer &= (1 << bits) - 1;
  }
  return Uint8Array.from(out);
}

/** CRC-16/XMODEM (polynomial 0x1021, initial 0), as nkeys computes it. */
export function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

function withChecksum(payload: Uint8Array): string {
  const crc = crc16(payload);
  return base32Encode(Uint8Array.from([...payload, crc & 0xff, crc >>> 8]));
}

/** The payload of an encoded key whose checksum holds, else undefined. */
function checkedPayload(text: string): Uint8Array | undefined {
  const raw = base32Decode(text);
  if (!raw || raw.length < 3) return undefined;
  const payload = raw.subarray(0, raw.length - 2);
  const crc = raw[raw.length - 2] | (raw[raw.length - 1] << 8);
  return crc16(payload) === crc ? payload : undefined;
}

export function encodePublic(role: NkeyType, key: Uint8Array): string {
  return withChecksum(Uint8Array.from([PREFIX[role], ...key]));
}

export function encodeSeed(role: NkeyType, seed: Uint8Array): string {
  const prefix = PREFIX[role];
  return withChecksum(Uint8Array.from([PREFIX.seed | (prefix >> 5), (prefix & 31) << 3, ...seed]));
}

export interface DecodedSeed {
  role: NkeyType;
  seed: Uint8Array;
}

/** A seed of a signing role (curve seeds are refused). The error never repeats the input. */
export function decodeSeed(text: string): DecodedSeed {
  const payload = checkedPayload(text);
  if (!payload || payload.length !== 34 || (payload[0] & 0xf8) !== PREFIX.seed) {
    throw new HttpError(400, "seed is not a valid nkey seed");
  }
  const role = ROLE_OF_PREFIX.get(((payload[0] & 7) << 5) | ((payload[1] & 0xf8) >> 3));
  if (!role) throw new HttpError(400, "seed is not the seed of an operator, account, user, cluster or server nkey");
  return { role, seed: payload.slice(2) };
}
