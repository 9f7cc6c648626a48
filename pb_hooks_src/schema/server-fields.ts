// Fields only the server writes (pure): a credential and the key it was minted for, a certificate and its
// fingerprint, a Thing's sign-in address, a bus account's keys and claim, an overlay CA. Written through the
// API, they kept the caller's value, and a later revocation named that value instead of the credential's (a
// suspended user's key stayed valid; a decommissioned host's certificate stayed unblocked); a Thing's
// address could take another organization's domain and block its codes; an account's signing keys could
// stop matching the seeds its users are signed with. The create paths already overwrite them.
import type { CollectionKey, CollectionNames } from "./names";

export const SERVER_FIELDS: Partial<Record<CollectionKey, readonly string[]>> = {
  bus_users: ["public_key", "jwt", "creds_file"],
  overlay_hosts: ["fingerprint", "cert", "not_after", "config_yaml"],
  things: ["email"],
  // A Platform Operator edits an account's name, active and limits directly; its keys are managed through
  // POST /api/org/bus-account/keys, and the claim, revocations and bus status are derived.
  bus_accounts: ["public_key", "jwt", "signing_keys", "revocations", "bus_confirmed", "bus_status"],
  // A CA is made with its organization and replaced through its rotation; only its name is the operator's.
  overlay_ca: [
    "cert", "fingerprint", "not_after", "revoked_fingerprints", "rotation",
    "next_cert", "next_fingerprint", "next_not_after", "previous_cert", "previous_fingerprint",
  ],
};

/** Blanking one of these asks the server to issue it again (a host's renewal, docs/overlay.md), which stays open. */
const BLANK_REISSUES: Partial<Record<CollectionKey, readonly string[]>> = {
  overlay_hosts: ["cert"],
};

/**
 * The CA fields a withdrawal of a prepared rotation blanks: `rotation` from `prepared` to blank, the
 * incoming CA's fields blanked or left for the server to blank (overlay/rotation.ts). Spec 3.2 calls
 * prepare fully reversible and the route has no verb for it, so the operator does it on the record,
 * which 5.6 lets them edit.
 */
function withdrawnRotationFields(key: CollectionKey | undefined, before: (field: string) => string, after: (field: string) => string): string[] {
  if (key !== "overlay_ca" || before("rotation") !== "prepared" || after("rotation") !== "") return [];
  return ["rotation", ...["next_cert", "next_fingerprint", "next_not_after"].filter((field) => after(field) === "")];
}

/**
 * The server's fields of `collection` that an update would change, given a field's text in the row as
 * stored (`before`) and as the request's body left it (`after`: PocketBase has loaded the body by then,
 * normalized by each field's type). A field sent with the value it already holds (a client echoing the
 * record back) changes nothing and is not counted, nor is a blank that asks for a reissue.
 */
export function serverFieldsChanged(n: CollectionNames, collection: string, before: (field: string) => string, after: (field: string) => string): string[] {
  const key = (Object.keys(SERVER_FIELDS) as CollectionKey[]).find((k) => n[k] === collection);
  const fields = key ? SERVER_FIELDS[key] ?? [] : [];
  const reissued = key ? BLANK_REISSUES[key] ?? [] : [];
  const withdrawn = withdrawnRotationFields(key, before, after);
  return fields.filter(
    (field) => after(field) !== before(field) && !withdrawn.includes(field) && !(after(field) === "" && reissued.includes(field)),
  );
}
