// The goja boundary of added routes: body reading and error answers, wrapped once.
import { MAX_BODY_BYTES, parseJsonRequest, type JsonObject } from "./body";
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
