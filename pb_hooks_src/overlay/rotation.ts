// POST /api/org/overlay-ca/rotate (spec 3.2 overlay CA rotation rows, 4.2, 7; docs/overlay.md "CA rotation").
// Three steps in the route's transaction: prepare (an incoming CA is trusted next to the issuing one),
// commit (issuance moves to it; every active host still on the outgoing CA is re-signed), finish (the
// outgoing CA is dropped once no active host holds one of its certificates). Invalid transitions are
// refused with common/overlay/rotation.ts's message, which the route returns verbatim on a 400.
import type { PlatformConfig } from "../config/types";
import { findAll } from "../lib/collections";
import type { WriteEffects } from "../lib/effects";
import { badRequest, forbidden, notFound } from "../lib/errors";
import { MANAGERS } from "../lib/roles";
import { transaction } from "../lib/transaction";
import { attribute } from "../audit/actor";
import type { CollectionNames } from "../schema/names";
import type { ActiveMembership } from "../tenancy/active";
import { caOf, mintCa } from "./ca";
import { certificateFromPem } from "./cert";
import { transitionRefusal, type OutgoingHolder, type RotationState, type RotationStep } from "../../common/overlay/rotation";

export interface RotationApplied {
  applied: RotationStep;
  overlay_ca: string;
}

export function rotateOverlayCa(app: CoreApp, n: CollectionNames, config: PlatformConfig, caller: ActiveMembership, step: RotationStep): RotationApplied {
  if (!MANAGERS.includes(caller.role)) throw forbidden("rolling the overlay CA needs the owner or admin role");
  return transaction(app, (tx) => {
    const org = caller.organization;
    const ca = caOf(tx, n, org.id);
    if (!ca || !ca.getString("cert")) throw notFound("the organization has no overlay certificate authority");
    const state = ca.getString("rotation") as RotationState;
    const refusal = transitionRefusal(state, step, step === "finish" ? outgoingHolder(tx, n, org.id, ca, state) : undefined);
    if (refusal) throw badRequest(refusal);
    attribute(ca, caller.user);
    if (step === "prepare") {
      // From none or prepared: a new incoming CA (preparing again replaces it). Issuance is unchanged.
      const next = mintCa(config, org.getString("code"));
      ca.set("next_cert", next.cert);
      ca.set("next_private_key", next.private_key);
      ca.set("next_fingerprint", next.fingerprint);
      ca.set("next_not_after", next.not_after);
      ca.set("rotation", "prepared");
      tx.save(ca);
      refreshHosts(tx, n, org.id, () => false);
    } else if (step === "commit") {
      if (state === "prepared") {
        ca.set("previous_cert", ca.getString("cert"));
        ca.set("previous_fingerprint", ca.getString("fingerprint"));
        ca.set("cert", ca.getString("next_cert"));
        ca.set("private_key", ca.getString("next_private_key"));
        ca.set("fingerprint", ca.getString("next_fingerprint"));
        ca.set("not_after", ca.get("next_not_after"));
        for (const f of ["next_cert", "next_private_key", "next_fingerprint", "next_not_after"]) ca.set(f, "");
        ca.set("rotation", "committed");
        tx.save(ca);
      }
      // Also when already committed: resumes the sweep over active hosts not issued by the current CA.
      const issuing = ca.getString("fingerprint");
      refreshHosts(tx, n, org.id, (host) => host.getBool("active") && issuerOf(host) !== issuing);
    } else {
      ca.set("previous_cert", "");
      ca.set("previous_fingerprint", "");
      ca.set("rotation", "");
      tx.save(ca);
      refreshHosts(tx, n, org.id, () => false);
    }
    return { applied: step, overlay_ca: ca.id };
  });
}

/**
 * A direct write of the CA that blanks `rotation` while the committed row is `prepared` withdraws the
 * incoming CA (spec 3.2: prepare is fully reversible; schema/server-fields.ts lets the operator make that
 * one change): its fields are blanked, its key included, and every host's config is regenerated without
 * it. Decided from the committed row: a withdrawal loaded before a concurrent commit is refused rather
 * than blanking a committed rotation.
 */
export function withdrawalEffects(ca: core.Record, n: CollectionNames): WriteEffects | undefined {
  if (ca.original().getString("rotation") !== "prepared" || ca.getString("rotation") !== "") return undefined;
  return {
    before: (_tx, previous) => {
      const committed = previous?.getString("rotation") ?? "";
      if (committed === "") return;
      if (committed !== "prepared") throw badRequest(`the overlay CA rotation was ${committed} meanwhile: nothing withdrawn`);
      for (const f of ["next_cert", "next_private_key", "next_fingerprint", "next_not_after"]) ca.set(f, "");
    },
    after: (tx) => refreshHosts(tx, n, ca.getString("organization"), () => false),
  };
}

/**
 * The first active host (by name) whose certificate the outgoing CA issued: before commit that CA is still
 * the issuing one, after commit it is the previous one. Undefined with no rotation under way.
 */
function outgoingHolder(tx: CoreApp, n: CollectionNames, organizationId: string, ca: core.Record, state: RotationState): OutgoingHolder | undefined {
  if (state === "") return undefined;
  const outgoing = ca.getString(state === "prepared" ? "fingerprint" : "previous_fingerprint");
  const holder = findAll(tx, n.overlay_hosts, "organization = {:org} && active = true", { org: organizationId }, "name").find(
    (host) => issuerOf(host) === outgoing,
  );
  return holder ? { id: holder.id, name: holder.getString("name") } : undefined;
}

/** The issuer fingerprint of a host's stored certificate; "" when it does not decode. */
export function issuerOf(host: core.Record): string {
  try {
    return certificateFromPem(host.getString("cert")).details.issuer;
  } catch {
    return "";
  }
}

/**
 * Saves every host of the organization again, which regenerates its config_yaml with the CA bundle
 * (overlay/hosts.ts prepareHost); a host for which `resign` holds loses its cert first, so the save signs
 * it with the issuing CA (new key pair).
 */
function refreshHosts(tx: CoreApp, n: CollectionNames, organizationId: string, resign: (host: core.Record) => boolean): void {
  for (const host of findAll(tx, n.overlay_hosts, "organization = {:org}", { org: organizationId }, "name")) {
    if (resign(host)) host.set("cert", "");
    tx.save(host);
  }
}
