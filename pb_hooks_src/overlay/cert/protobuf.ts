// The slice of the protobuf wire format (proto3) that Nebula v1 certificates use, written the way Go's
// google.golang.org/protobuf marshals and read the way it unmarshals. The signature covers bytes that Go
// re-encodes from parsed fields, so "equivalent" encodings are not enough: encoding must be byte-identical.
import { CertificateFormatError } from "./errors";

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_BYTES = 2;
export const WIRE_FIXED32 = 5;

const MAX_FIELD_NUMBER = 536870911; // 2^29 - 1
const TWO_POW_64 = BigInt("18446744073709551616");

/** Bytes under construction; a plain array because goja's typed arrays cannot grow. */
export type Sink = number[];

/** A varint of a non-negative safe integer (uint32, or an int64 that is >= 0). */
export function writeVarint(out: Sink, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new CertificateFormatError(`varint out of range: ${value}`);
  // Division, not >>>: bit operators truncate to 32 bits and int64 times can be larger.
  while (value > 127) {
    out.push((value % 128) + 128);
    value = Math.floor(value / 128);
  }
  out.push(value);
}

/** An int64 as Go encodes it: two's complement in 64 bits, so a negative value always takes 10 bytes. */
export function writeInt64(out: Sink, value: number): void {
  if (!Number.isSafeInteger(value)) throw new CertificateFormatError(`int64 out of the exact range: ${value}`);
  if (value >= 0) return writeVarint(out, value);
  let v = TWO_POW_64 + BigInt(value);
  const big127 = BigInt(127);
  const big128 = BigInt(128);
  while (v > big127) {
    out.push(Number(v % big128) + 128);
    v = v / big128;
  }
  out.push(Number(v));
}

export function writeTag(out: Sink, field: number, wire: number): void {
  writeVarint(out, field * 8 + wire);
}

export function writeBytesField(out: Sink, field: number, bytes: ArrayLike<number>): void {
  writeTag(out, field, WIRE_BYTES);
  writeVarint(out, bytes.length);
  for (let i = 0; i < bytes.length; i++) out.push(bytes[i]);
}

/** A repeated scalar in proto3's default packed form: one length-delimited run of varints. */
export function writePackedVarints(out: Sink, field: number, values: number[]): void {
  const run: Sink = [];
  for (const v of values) writeVarint(run, v);
  writeBytesField(out, field, run);
}

/** One field as read off the wire. Fixed-width values are kept as raw bytes: no Nebula field uses them. */
export type WireField =
  | { field: number; wire: typeof WIRE_VARINT; value: bigint }
  | { field: number; wire: typeof WIRE_BYTES | typeof WIRE_FIXED64 | typeof WIRE_FIXED32; bytes: Uint8Array };

/**
 * Reads a varint at `pos` as Go's protowire.ConsumeVarint does: at most 10 bytes, the 10th at most 1.
 * Returns the value (unsigned, up to 64 bits) and the position after it.
 */
export function readVarint(buf: Uint8Array, pos: number): [bigint, number] {
  let value = BigInt(0);
  for (let i = 0; i < 10; i++) {
    if (pos + i >= buf.length) throw new CertificateFormatError("truncated varint");
    const b = buf[pos + i];
    if (i === 9 && b > 1) throw new CertificateFormatError("varint overflows 64 bits");
    value += BigInt(b & 127) << BigInt(7 * i);
    if (b < 128) return [value, pos + i + 1];
  }
  throw new CertificateFormatError("varint overflows 64 bits");
}

/** Splits a message into its fields, in wire order. Groups (wire types 3, 4) are refused: proto3 has none. */
export function readFields(buf: Uint8Array): WireField[] {
  const fields: WireField[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const [tag, afterTag] = readVarint(buf, pos);
    const field = Number(tag >> BigInt(3));
    const wire = Number(tag & BigInt(7));
    if (tag >> BigInt(3) > BigInt(MAX_FIELD_NUMBER) || field < 1) throw new CertificateFormatError("invalid field number");
    pos = afterTag;
    if (wire === WIRE_VARINT) {
      const [value, next] = readVarint(buf, pos);
      fields.push({ field, wire, value });
      pos = next;
      continue;
    }
    let length: number;
    if (wire === WIRE_BYTES) {
      const [n, next] = readVarint(buf, pos);
      if (n > BigInt(buf.length - next)) throw new CertificateFormatError("truncated length-delimited field");
      length = Number(n);
      pos = next;
    } else if (wire === WIRE_FIXED64) length = 8;
    else if (wire === WIRE_FIXED32) length = 4;
    else throw new CertificateFormatError(`unsupported wire type ${wire}`);
    if (pos + length > buf.length) throw new CertificateFormatError("truncated fixed-width field");
    fields.push({ field, wire, bytes: buf.subarray(pos, pos + length) });
    pos += length;
  }
  return fields;
}

/** The elements of a packed repeated varint field. */
export function readPackedVarints(bytes: Uint8Array): bigint[] {
  const values: bigint[] = [];
  let pos = 0;
  while (pos < bytes.length) {
    const [value, next] = readVarint(bytes, pos);
    values.push(value);
    pos = next;
  }
  return values;
}
