// The goja boundary of added routes: body reading and error answers, wrapped once.
import { MAX_BODY_BYTES, isObject, parseJsonRequest, type JsonObject } from "./body";
import { RouteError } from "./errors";
import { requestOf } from "./events";

/**
 * Reads the body as a JSON object; requestInfo() would throw on arrays and unknown content types. A
 * non-blank body must be declared as JSON (415 otherwise), as PocketBase's own routes expect.
 */
export function readJsonObject(e: core.RequestEvent, allowEmpty = false): JsonObject {
  // One byte past the limit is enough to tell an oversized body; counted in bytes, not characters.
  const request = requestOf(e);
  const contentType = request.header.get("Content-Type");
  if (!request.body) return parseJsonRequest(contentType, "", allowEmpty);
  const bytes = toBytes(request.body, MAX_BODY_BYTES + 1);
  return parseJsonRequest(contentType, bytes.length ? toString(bytes) : "", allowEmpty, bytes.length);
}

/** Record API bodies can carry certificates and configs; past this the sent body is not read again. */
const SENT_BODY_BYTES = 4 * 1024 * 1024;

/**
 * A record request's JSON as the client sent it. requestInfo().body holds the values PocketBase has
 * already read into each field's type ("yes" into a bool is false), so a check of the sent types reads
 * the body again (PocketBase keeps it re-readable). A multipart form carries JSON in its `@jsonPayload`
 * field, PocketBase's own convention, in which /api/batch sends every item. undefined for anything else
 * (a multipart form's plain fields are text whatever the client meant).
 */
export function sentJsonBody(request: http.Request): JsonObject | undefined {
  const contentType = request.header.get("Content-Type");
  let text: string;
  if (/^multipart\/form-data\b/i.test(contentType)) text = request.formValue("@jsonPayload");
  else if (request.body && /^application\/json\b/i.test(contentType)) text = toString(toBytes(request.body, SENT_BODY_BYTES));
  else return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs a route; a RouteError becomes its status with `{status, message, data}` like PocketBase's own. An
 * undefined body answers the status with no content (a 304).
 */
export function respond(e: core.RequestEvent, handler: () => { status: number; body: unknown }): void {
  let result: { status: number; body: unknown };
  try {
    result = handler();
  } catch (err) {
    if (err instanceof RouteError) {
      e.json(err.status, { status: err.status, message: err.message, data: {} });
      return;
    }
    throw err;
  }
  if (result.body === undefined) e.noContent(result.status);
  else e.json(result.status, result.body);
}
