// Fields only the server writes (pure): a credential and the key it was minted for, a certificate and its
// fingerprint, a Thing's sign-in address. Written through the API, they kept the caller's value, and a
// later revocation named that value instead of the credential's (a suspended user's key stayed valid; a
// decommissioned host's certificate stayed unblocked); a Thing's address could take another
// organization's domain and block its codes. The create paths already overwrite them.
import type { CollectionKey, CollectionNames } from "./names";

export const SERVER_FIELDS: Partial<Record<CollectionKey, readonly string[]>> = {
  bus_users: ["public_key", "jwt", "creds_file"],
  overlay_hosts: ["fingerprint", "cert", "not_after", "config_yaml"],
  things: ["email"],
};

/** Blanking one of these asks the server to issue it again (a host's renewal, docs/overlay.md), which stays open. */
const BLANK_REISSUES: Partial<Record<CollectionKey, readonly string[]>> = {
  overlay_hosts: ["cert"],
};

/**
 * The server's fields of `collection` that an update `body` would change. A field sent with the value it
 * already holds (a client echoing the record back) changes nothing and is not counted, nor is a blank
 * that asks for a reissue.
 */
export function serverFieldsChanged(n: CollectionNames, collection: string, body: Record<string, unknown>, current: (field: string) => string): string[] {
  const key = (Object.keys(SERVER_FIELDS) as CollectionKey[]).find((k) => n[k] === collection);
  const fields = key ? SERVER_FIELDS[key] ?? [] : [];
  const reissued = key ? BLANK_REISSUES[key] ?? [] : [];
  return fields.filter((field) => field in body && String(body[field] ?? "") !== current(field) && !(body[field] === "" && reissued.includes(field)));
}
