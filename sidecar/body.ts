// Request bodies: bounded in size, JSON objects only, and parse errors that never quote the input
// (V8's JSON.parse messages include a slice of the text, which may be a seed).
import type { IncomingMessage } from "node:http";
import { HttpError } from "./errors";

/** Big enough for an account JWT with thousands of revocations; NATS itself caps a message at 1 MiB. */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;

export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > limit) return Promise.reject(tooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners("data");
        req.resume();
        reject(tooLarge(limit));
      } else chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", () => reject(new HttpError(400, "the request body could not be read")));
  });
}

const tooLarge = (limit: number) => new HttpError(413, `the request body exceeds ${limit} bytes`);

/** An empty body is an empty object (endpoints without parameters). */
export function parseJsonObject(body: Buffer): Record<string, unknown> {
  if (body.length === 0) return {};
  let value: unknown;
  try {
    value = JSON.parse(body.toString("utf8"));
  } catch {
    throw new HttpError(400, "the request body is not valid JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new HttpError(400, "the request body must be a JSON object");
  return value as Record<string, unknown>;
}
