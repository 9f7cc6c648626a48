// Publication of account claims over the control plane's own bus connection (as the system user):
// an active account's claim is pushed with $SYS.REQ.CLAIMS.UPDATE, a suspended one's withdrawn with
// $SYS.REQ.CLAIMS.DELETE (the server then disconnects its clients and, with the full resolver, keeps it
// out across restarts). The outcome is recorded on the account row, never hidden from the caller.
import { currentConfig } from "../config/runtime";
import { sidecarCall } from "../lib/sidecar";
import type { CollectionNames } from "../schema/names";
import { deleteAccountsClaims } from "./claims";
import { operatorKeys } from "./operator";
import { parseClaimsReply, type ClaimsReply } from "./replies";
import { signJwt } from "./signer";

const PUBLISH_TIMEOUT_MS = 3000;

export function publishAccount(app: CoreApp, n: CollectionNames, account: core.Record): ClaimsReply {
  let outcome: ClaimsReply;
  try {
    const operator = operatorKeys(app);
    const active = account.getBool("active");
    const payload = active
      ? account.getString("jwt")
      : signJwt(operator.signingSeed, deleteAccountsClaims(operator.signingKeyPub, [account.getString("public_key")]));
    const { reply } = sidecarCall<{ reply: string }>("/v1/nats/request", {
      servers: [currentConfig().bus.server_url],
      creds: operator.systemUserCreds,
      subject: active ? "$SYS.REQ.CLAIMS.UPDATE" : "$SYS.REQ.CLAIMS.DELETE",
      payload,
      timeoutMs: PUBLISH_TIMEOUT_MS,
    }, PUBLISH_TIMEOUT_MS / 1000 + 2);
    outcome = parseClaimsReply(reply);
    // Deleting an account the server does not hold is the state we want.
    if (!active && !outcome.ok && /not found|no such|does not exist/i.test(outcome.message)) outcome = { ok: true, message: outcome.message };
  } catch (err) {
    outcome = { ok: false, message: `the bus has not confirmed it: ${err instanceof Error ? err.message : String(err)}` };
  }
  recordOutcome(app, n, account, outcome);
  return outcome;
}

/** Written with a plain UPDATE: the outcome is not a change of desired state (no hooks, no audit entry). */
function recordOutcome(app: CoreApp, n: CollectionNames, account: core.Record, outcome: ClaimsReply): void {
  app.db()
    .newQuery(`UPDATE {{${n.bus_accounts}}} SET bus_confirmed = {:ok}, bus_status = {:status} WHERE id = {:id}`)
    .bind({ ok: outcome.ok, status: outcome.message.slice(0, 500), id: account.id })
    .execute();
  account.set("bus_confirmed", outcome.ok);
  account.set("bus_status", outcome.message.slice(0, 500));
}
