// Sign-ins → `auth` audit entries (onRecordAuthRequest: password, OTP, OAuth2 and impersonation).
//
// A sign-in changes no row, so there is no write transaction to join. The entry is written before
// PocketBase issues the session, so a sign-in whose entry cannot be written is refused (fail closed,
// like writes); if issuing then fails (an MFA step is still due, the response cannot be built), the
// entry is withdrawn. A token refresh is not an entry: it proves a session already audited.
import { currentConfig } from "../config/runtime";
import { recordOf } from "../lib/events";
import { collectionNames } from "../schema/names";
import { actorFor } from "./actor";
import { authEntry } from "./entries";
import { isAudited, SUPERUSERS } from "./policy";
import { writeAudit } from "./writer";

export function auditAuth(e: core.RecordAuthRequestEvent): void {
  const n = collectionNames(currentConfig());
  const record = recordOf(e);
  const collection = record.collection().name;
  // PocketBase passes an empty auth method for refreshes and impersonations only.
  const impersonated = e.authMethod === "" && isSuperuserOther(e, record);
  if (!isAudited(n, collection) || (e.authMethod === "" && !impersonated)) {
    e.next();
    return;
  }
  // The record proved its credentials; an impersonated session is the SuperUser's doing.
  const actor = actorFor(impersonated && e.auth ? e.auth : record).ref;
  const entry = writeAudit(e.app, n, authEntry(collection, record.id, actor));
  try {
    e.next();
  } catch (err) {
    if (entry) withdraw(e.app, entry);
    throw err;
  }
}

/** Best effort: the sign-in's own error is what the caller must see. */
function withdraw(app: CoreApp, entry: core.Record): void {
  try {
    app.delete(entry);
  } catch (cause) {
    app.logger().warn("audit: could not withdraw the entry of an unfinished sign-in", "entry", entry.id, "error", String(cause));
  }
}

function isSuperuserOther(e: core.RecordAuthRequestEvent, record: core.Record): boolean {
  return !!e.auth && e.auth.collection().name === SUPERUSERS && e.auth.id !== record.id;
}
