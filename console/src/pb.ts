// The one PocketBase client. Requests go to the origin that served the console.
import PocketBase, { ClientResponseError, getTokenPayload, type RecordModel } from "pocketbase";

export const pb = new PocketBase("/");
// Screens ignore stale answers themselves; the SDK's auto-cancellation would turn a quick second
// navigation into an aborted request.
pb.autoCancellation(false);

/** A file token is asked for again this long before it expires, so a URL handed out still works when loaded. */
export const FILE_TOKEN_MARGIN_MS = 20_000;

/**
 * Every file field is protected (spec 4.1): a file URL needs `?token=` with a short-lived file token from
 * POST /api/files/token. The token is reused while it has FILE_TOKEN_MARGIN_MS left and the session is the
 * one it was minted for (another sign-in gets its own); concurrent callers share one request.
 */
export function fileTokens(mint: () => Promise<string>, session: () => string, now: () => number = Date.now): () => Promise<string> {
  let cached: { session: string; token: Promise<string>; expiresAt: number } | undefined;
  return () => {
    const current = session();
    if (cached && cached.session === current && now() < cached.expiresAt - FILE_TOKEN_MARGIN_MS) return cached.token;
    const entry = { session: current, token: mint(), expiresAt: Infinity };
    cached = entry;
    entry.token.then(
      (token) => {
        const exp = getTokenPayload(token).exp;
        entry.expiresAt = typeof exp === "number" ? exp * 1000 : 0;
      },
      () => {
        if (cached === entry) cached = undefined;
      },
    );
    return entry.token;
  };
}

const fileToken = fileTokens(() => pb.files.getToken(), () => pb.authStore.token);

/** The URL of a protected file of `record` (e.g. a Location's floor plan), with a file token. */
export async function protectedFileUrl(record: Pick<RecordModel, "id" | "collectionId" | "collectionName">, filename: string): Promise<string> {
  return pb.files.getURL(record, filename, { token: await fileToken() });
}

/**
 * The server's message of a failed request, in words, followed by what it said about each field it
 * refused (PocketBase puts those under `data`, e.g. `prefix: Must be in a valid format.`).
 */
export function messageOf(error: unknown): string {
  if (typeof error !== "object" || error === null) return "Something went wrong.";
  const message = "message" in error && typeof error.message === "string" && error.message ? error.message : "Something went wrong.";
  if (IN_USE.test(message)) return "It is still in use: other records refer to it (a network's hosts, for example). Delete or change those first.";
  const data = "data" in error && typeof error.data === "object" && error.data !== null && "data" in error.data ? error.data.data : undefined;
  if (typeof data !== "object" || data === null) return message;
  const fields = Object.entries(data).flatMap(([field, detail]: [string, unknown]) => (detailMessage(detail) ? [`${field}: ${detailMessage(detail)}`] : []));
  return [message, ...fields].join(" ");
}

/** PocketBase's refusal of a delete that a required relation blocks, which names nothing. */
const IN_USE = /^Failed to delete record\. Make sure that the record is not part of a required relation reference\.?$/;

/** The message of one field's entry in a 400's `data` ({ code, message }), or "". */
function detailMessage(detail: unknown): string {
  return typeof detail === "object" && detail !== null && "message" in detail && typeof detail.message === "string" ? detail.message : "";
}

/** The server's message about one field of a refused write (a 400's `data`), if it gave one. */
export function fieldMessage(error: unknown, field: string): string {
  if (!(error instanceof ClientResponseError)) return "";
  return detailMessage(error.response?.data?.[field]);
}
