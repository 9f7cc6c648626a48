// The one PocketBase client. Requests go to the origin that served the console.
import PocketBase from "pocketbase";

export const pb = new PocketBase("/");
// Screens ignore stale answers themselves; the SDK's auto-cancellation would turn a quick second
// navigation into an aborted request.
pb.autoCancellation(false);

/** The server's message of a failed request, in words. */
export function messageOf(error: unknown): string {
  if (typeof error === "object" && error !== null && "message" in error && typeof error.message === "string" && error.message) return error.message;
  return "Something went wrong.";
}
