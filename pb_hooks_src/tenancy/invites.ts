// Invitations: filled in on creation for every writer, redeemed by POST /api/org/invites/accept (spec 4.2).
import type { AcceptedInvite } from "../../common/tenancy/invite-acceptance";
import { findFirst, membershipOf } from "../lib/collections";
import { forbidden, notFound, RouteError } from "../lib/errors";
import { requiredString, type JsonObject } from "../lib/body";
import { randomText } from "../lib/random";
import { transaction } from "../lib/transaction";
import type { CollectionNames } from "../schema/names";
import { attribute } from "../audit/actor";
import { asciiLowerCase, sameMailbox, trimAsciiSpace } from "./mailbox";

const TOKEN_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const TOKEN_LENGTH = 43; // about 256 bits
const DAY_MS = 24 * 3600 * 1000;

/** A new invitation gets an opaque token, its expiry and its address with ASCII letters lowered and ASCII spaces trimmed (mailbox.ts). */
export function prepareInvite(invite: core.Record, expiryDays: number, now: Date): void {
  if (invite.getString("role") === "owner") throw new BadRequestError("an invitation cannot offer the owner role");
  invite.set("email", asciiLowerCase(trimAsciiSpace(invite.getString("email"))));
  if (invite.getString("token") === "") invite.set("token", randomText(TOKEN_LENGTH, TOKEN_ALPHABET));
  if (invite.getString("expiry") === "") invite.set("expiry", new Date(now.getTime() + expiryDays * DAY_MS).toISOString());
}

/**
 * Redeems an invitation for `caller` in one transaction: membership created with the invitation's role,
 * current_organization set only when blank, invitation deleted. An expired invitation is deleted too,
 * and the 410 is raised after that deletion committed.
 */
export function acceptInvite(app: CoreApp, n: CollectionNames, caller: core.Record, body: JsonObject, now: Date): AcceptedInvite {
  const token = requiredString(body, "token");
  const outcome = transaction(app, (tx): AcceptedInvite | "expired" => {
    const invite = findFirst(tx, n.invites, "token = {:token}", { token });
    if (!invite) throw notFound("no invitation with that token");
    // The address as committed, not as it was when the session's token was checked.
    const user = tx.findRecordById(n.users, caller.id);
    if (!sameMailbox(invite.getString("email"), user.getString("email"))) {
      throw forbidden("the invitation was issued to a different e-mail address");
    }
    const organization = invite.getString("organization");
    // Every way this call deletes the invitation is the caller's doing (expired, already a member, accepted).
    attribute(invite, caller);
    if (invite.getDateTime("expiry").time().unixMilli() <= now.getTime()) {
      tx.delete(invite);
      return "expired";
    }
    if (membershipOf(tx, n, caller.id, organization)) {
      tx.delete(invite);
      return { message: "already a member of the organization", organization, alreadyMember: true };
    }
    const membership = new Record(tx.findCollectionByNameOrId(n.memberships));
    membership.set("user", caller.id);
    membership.set("organization", organization);
    membership.set("role", invite.getString("role"));
    attribute(membership, caller);
    tx.save(membership);
    if (user.getString("current_organization") === "") {
      user.set("current_organization", organization);
      attribute(user, caller);
      tx.save(user);
    }
    tx.delete(invite);
    return { message: "invitation accepted", organization };
  });
  if (outcome === "expired") throw new RouteError(410, "the invitation has expired");
  return outcome;
}
