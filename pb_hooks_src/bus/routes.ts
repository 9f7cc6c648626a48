// HTTP glue of the bus routes.
import { currentConfig } from "../config/runtime";
import { forbidden } from "../lib/errors";
import { conditionalAnswer } from "../lib/row-validator";
import { readJsonObject, respond } from "../lib/request";
import { requiredString } from "../lib/body";
import { requireSidecarCaller } from "../lib/sidecar-caller";
import { MANAGERS } from "../lib/roles";
import { collectionNames } from "../schema/names";
import { activeMembership } from "../tenancy/active";
import { manageSigningKeys } from "./keys";
import { pushClaimsMissedBy } from "./node-back";
import { runCredentialUpkeep } from "./upkeep";
import { leafConfig, leafConfigTag } from "./leaf";
import { rotateOwnCredential } from "./rotate";
import { signPendingRevocations } from "./effects";

/**
 * GET /api/me/leaf-config (things session). Carries a cheap ETag (leafConfigTag); a poll whose
 * If-None-Match names it answers 304 with no body and nothing built, so an unchanged configuration
 * reads no claim and sends no key material.
 */
export function leafConfigRoute(e: core.RequestEvent): void {
  respond(e, () => {
    const config = currentConfig();
    const n = collectionNames(config);
    const thing = e.auth;
    if (!thing || thing.collection().name !== n.things) throw forbidden("this route needs a Thing session");
    return conditionalAnswer(e, leafConfigTag(e.app, n, config, thing), () => leafConfig(e.app, n, config, thing));
  });
}

/** POST /api/me/bus-creds/rotate (users or things session, no body) */
export function rotateRoute(e: core.RequestEvent): void {
  respond(e, () => {
    const n = collectionNames(currentConfig());
    readJsonObject(e, true);
    const caller = e.auth;
    if (!caller) throw forbidden("this route needs a session");
    return { status: 200, body: rotateOwnCredential(e.app, n, caller) };
  });
}

/** POST /api/org/bus-account/keys (owner/admin) */
export function signingKeysRoute(e: core.RequestEvent): void {
  respond(e, () => {
    const n = collectionNames(currentConfig());
    const caller = activeMembership(e.app, n, e.auth);
    // The role before the body: a caller who may not act learns nothing about what a valid body looks like.
    if (!MANAGERS.includes(caller.role)) throw forbidden("managing signing keys needs the owner or admin role");
    return { status: 200, body: manageSigningKeys(e.app, n, caller, readJsonObject(e)) };
  });
}

/** POST /api/platform/bus/upkeep (the sidecar only, on its schedule): renewals and pruning (upkeep.ts). */
export function upkeepRoute(e: core.RequestEvent): void {
  respond(e, () => {
    requireSidecarCaller(e);
    return { status: 200, body: runCredentialUpkeep(e.app) };
  });
}

/** POST /api/platform/bus/sign-claim (the sidecar only): an account's pending revocations signed and pushed. */
export function signClaimRoute(e: core.RequestEvent): void {
  respond(e, () => {
    requireSidecarCaller(e);
    const account = requiredString(readJsonObject(e), "account");
    return { status: 200, body: { account, signed: signPendingRevocations(e.app, collectionNames(currentConfig()), account) } };
  });
}

/** POST /api/platform/bus/node-back (the sidecar only): a hub node is back; push it the claims it missed. */
export function nodeBackRoute(e: core.RequestEvent): void {
  respond(e, () => {
    requireSidecarCaller(e);
    return { status: 200, body: pushClaimsMissedBy(e.app, requiredString(readJsonObject(e), "name")) };
  });
}
