// The one PocketBase client. Requests go to the origin that served the console.
import PocketBase, { ClientResponseError } from "pocketbase";

export const pb = new PocketBase("/");
// Screens ignore stale answers themselves; the SDK's auto-cancellation would turn a quick second
// navigation into an aborted request.
pb.autoCancellation(false);

/** The server's message of a failed request, in words. */
export function messageOf(error: unknown): string {
  if (typeof error === "object" && error !== null && "message" in error && typeof error.message === "string" && error.message) return error.message;
  return "Something went wrong.";
}

/** The server's message about one field of a refused write (a 400's `data`), if it gave one. */
export function fieldMessage(error: unknown, field: string): string {
  if (!(error instanceof ClientResponseError)) return "";
  const detail: unknown = error.response?.data?.[field];
  return typeof detail === "object" && detail !== null && "message" in detail && typeof detail.message === "string" ? detail.message : "";
}
