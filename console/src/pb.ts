// The one PocketBase client. Requests go to the origin that served the console.
import PocketBase, { ClientResponseError } from "pocketbase";

export const pb = new PocketBase("/");
// Screens ignore stale answers themselves; the SDK's auto-cancellation would turn a quick second
// navigation into an aborted request.
pb.autoCancellation(false);

/**
 * The server's message of a failed request, in words, followed by what it said about each field it
 * refused (PocketBase puts those under `data`, e.g. `prefix: Must be in a valid format.`).
 */
export function messageOf(error: unknown): string {
  if (typeof error !== "object" || error === null) return "Something went wrong.";
  const message = "message" in error && typeof error.message === "string" && error.message ? error.message : "Something went wrong.";
  const data = "data" in error && typeof error.data === "object" && error.data !== null && "data" in error.data ? error.data.data : undefined;
  if (typeof data !== "object" || data === null) return message;
  const fields = Object.entries(data).flatMap(([field, detail]: [string, unknown]) => (detailMessage(detail) ? [`${field}: ${detailMessage(detail)}`] : []));
  return [message, ...fields].join(" ");
}

/** The message of one field's entry in a 400's `data` ({ code, message }), or "". */
function detailMessage(detail: unknown): string {
  return typeof detail === "object" && detail !== null && "message" in detail && typeof detail.message === "string" ? detail.message : "";
}

/** The server's message about one field of a refused write (a 400's `data`), if it gave one. */
export function fieldMessage(error: unknown, field: string): string {
  if (!(error instanceof ClientResponseError)) return "";
  return detailMessage(error.response?.data?.[field]);
}
