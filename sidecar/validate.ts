// Field readers for request bodies. Each throws a 400 that names the field and never its value.
import { HttpError } from "./errors";

export type Body = Record<string, unknown>;

const invalid = (message: string) => new HttpError(400, message);

export function stringField(body: Body, name: string): string {
  const value = body[name];
  if (typeof value !== "string" || value === "") throw invalid(`${name} must be a non-empty string`);
  return value;
}

export function optionalStringField(body: Body, name: string): string | undefined {
  return body[name] === undefined ? undefined : stringField(body, name);
}

/** A string that may be empty (a message payload). */
export function textField(body: Body, name: string): string {
  const value = body[name];
  if (typeof value !== "string") throw invalid(`${name} must be a string`);
  return value;
}

export function integerField(body: Body, name: string, min: number, max: number, fallback?: number): number {
  const value = body[name] ?? fallback;
  if (!Number.isSafeInteger(value) || (value as number) < min || (value as number) > max) {
    throw invalid(`${name} must be an integer from ${min} to ${max}`);
  }
  return value as number;
}

export function stringArrayField(body: Body, name: string, maxItems: number): string[] {
  const value = body[name];
  if (!Array.isArray(value) || value.length === 0 || value.length > maxItems || !value.every((v) => typeof v === "string" && v !== "")) {
    throw invalid(`${name} must be an array of 1 to ${maxItems} non-empty strings`);
  }
  return value as string[];
}

/** An array of 1 to `maxItems` objects, each read by `item` (which names the field it refuses). */
export function objectArrayField<T>(body: Body, name: string, maxItems: number, item: (entry: Body) => T): T[] {
  const value = body[name];
  if (!Array.isArray(value) || value.length === 0 || value.length > maxItems) throw invalid(`${name} must be an array of 1 to ${maxItems} objects`);
  return value.map((entry) => {
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) throw invalid(`${name} must hold objects only`);
    return item(entry as Body);
  });
}

export function objectField(body: Body, name: string): Body {
  const value = body[name];
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw invalid(`${name} must be an object`);
  return value as Body;
}

/** Standard base64 (padding optional) decoding to exactly `length` bytes when given. */
export function base64Field(body: Body, name: string, length?: number): Buffer {
  const text = stringField(body, name);
  const bytes = Buffer.from(text, "base64");
  const canonical = bytes.toString("base64").replace(/=+$/, "");
  if (canonical !== text.replace(/=+$/, "") || (length !== undefined && bytes.length !== length)) {
    throw invalid(length === undefined ? `${name} must be base64` : `${name} must be ${length} bytes in base64`);
  }
  return bytes;
}
