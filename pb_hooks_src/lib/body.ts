// Validation of JSON request bodies (pure). Every failure is a 400 naming the field.
import { RouteError, badRequest } from "./errors";

/** Added routes take small JSON objects; anything larger is refused before parsing. */
export const MAX_BODY_BYTES = 64 * 1024;

export type JsonObject = Record<string, unknown>;

export function parseJsonObject(text: string, allowEmpty: boolean): JsonObject {
  if (text.length > MAX_BODY_BYTES) throw new RouteError(413, `request body exceeds ${MAX_BODY_BYTES} bytes`);
  if (text.trim() === "") {
    if (allowEmpty) return {};
    throw badRequest("request body must be a JSON object");
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest("request body is not valid JSON");
  }
  if (!isObject(value)) throw badRequest("request body must be a JSON object");
  return value;
}

/**
 * The body of a request to an added JSON route: size first (413), then a blank body (400 unless allowed),
 * then the media type (415: a non-blank body must be declared as JSON), then the JSON object itself.
 */
export function parseJsonRequest(contentType: string, text: string, allowEmpty: boolean, byteLength = text.length): JsonObject {
  if (byteLength > MAX_BODY_BYTES || text.length > MAX_BODY_BYTES) throw new RouteError(413, `request body exceeds ${MAX_BODY_BYTES} bytes`);
  if (text.trim() !== "" && !isJsonMediaType(contentType)) {
    throw new RouteError(415, "request body must be JSON sent with Content-Type: application/json");
  }
  return parseJsonObject(text, allowEmpty);
}

/** application/json or an application/*+json type, parameters (charset) ignored. */
export function isJsonMediaType(contentType: string): boolean {
  const media = contentType.split(";")[0].trim().toLowerCase();
  return media === "application/json" || /^application\/[a-z0-9.!#$&^_-]+\+json$/.test(media);
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A string field; absent or null gives "". */
export function optionalString(body: JsonObject, field: string, path = field): string {
  const value = body[field];
  if (value === undefined || value === null) return "";
  if (typeof value !== "string") throw badRequest(`${path} must be a string`);
  return value.trim();
}

export function requiredString(body: JsonObject, field: string, path = field): string {
  const value = optionalString(body, field, path);
  if (value === "") throw badRequest(`${path} is required`);
  return value;
}

/** An object field; absent or null gives undefined. */
export function optionalObject(body: JsonObject, field: string, path = field): JsonObject | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw badRequest(`${path} must be an object`);
  return value;
}

export function oneOfStrings<T extends string>(value: string, allowed: readonly T[], path: string): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw badRequest(`${path} must be one of ${allowed.join(", ")}`);
  }
  return value as T;
}

/**
 * The first of `flags` (bool fields) that `body` sets to anything but a boolean, or undefined. The record
 * API reads any other value as false, so `{"active": "yes"}` decommissioned a Thing; the strings "true"
 * and "false", which it reads right, stay accepted.
 */
export function nonBooleanFlag(flags: readonly string[], body: JsonObject): string | undefined {
  return flags.find((flag) => flag in body && ![true, false, "true", "false"].includes(body[flag] as never));
}
