// The signed-in user's own bus identity (spec 5.1 "read own linked bus identity; clear own membership's
// link; rotate own credential"): the bus_users row the active membership links to, which the bus_users view
// rule lets every role read (rule 12), and POST /api/me/bus-creds/rotate (spec 4.2).
import { ClientResponseError } from "pocketbase";
import { announceOwnCredentialRotated } from "./own-credential-signal";
import { pb } from "./pb";

/** What the screen shows of the linked identity: never the seed nor the creds file. */
export interface LinkedBusIdentity {
  id: string;
  name: string;
  public_key: string;
  active: boolean;
  updated: string;
}

/** The identity the membership links to, or null when none is linked. */
export async function loadOwnBusIdentity(membership: string): Promise<LinkedBusIdentity | null> {
  const row = await pb.collection("memberships").getOne(membership, { fields: "id,bus_user" });
  if (!row.bus_user) return null;
  const user = await pb.collection("bus_users").getOne(row.bus_user, { fields: "id,name,public_key,active,updated" });
  return { id: user.id, name: user.name, public_key: user.public_key, active: user.active === true, updated: user.updated };
}

/** The creds file's text, read only when the user asks to download it. */
export async function readCredsFile(busUser: string): Promise<string> {
  const row = await pb.collection("bus_users").getOne(busUser, { fields: "creds_file" });
  return row.creds_file as string;
}

/** A file name for the creds file: the identity's name with anything unsafe in a file name replaced. */
export function credsFileName(name: string): string {
  return safeFileName(name, "bus-identity", "creds");
}

/** `<name>.<extension>` with anything unsafe in a file name replaced; `fallback` when nothing is left. */
export function safeFileName(name: string, fallback: string, extension: string): string {
  const safe = name.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[-.]+|-+$/g, "");
  return `${safe || fallback}.${extension}`;
}

/** Hands the text to the browser as a file download (nothing of it is kept on the page). */
export function downloadText(text: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.click();
  // Revoked after the click has been handled, or the download may find no file.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Re-signs the own credential for the same key; the route's refusals in words (spec 4.2's table). */
export async function rotateOwnCredential(): Promise<void> {
  try {
    await pb.send("/api/me/bus-creds/rotate", { method: "POST" });
  } catch (failure) {
    throw new Error(rotationRefusal(failure));
  }
  announceOwnCredentialRotated();
}

export function rotationRefusal(failure: unknown): string {
  const status = failure instanceof ClientResponseError ? failure.status : 0;
  const server = failure instanceof Error && failure.message ? ` (${failure.message})` : "";
  if (status === 403) return `Your bus identity is suspended, so its credential cannot be rotated. An owner or admin of this organization can reactivate it${server}.`;
  if (status === 404) return `No bus identity is linked to your membership in this organization any more${server}.`;
  if (status === 400) return `Choose an organization first: rotation applies to the identity of your active organization${server}.`;
  return failure instanceof Error && failure.message ? failure.message : "Something went wrong.";
}

/** Clears the membership's link (a member may clear, never re-point it: rule 10); the identity itself stays. */
export async function clearOwnLink(membership: string): Promise<void> {
  await pb.collection("memberships").update(membership, { bus_user: "" });
}
