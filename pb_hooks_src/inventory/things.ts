// Record-level preparation of Things, for every writer: a blank code is generated under the type's
// prefix and the e-mail is `<thing code>@<organization code>.thing.local`, whatever the caller sent.
import { findRecord } from "../lib/collections";
import { randomText } from "../lib/random";
import { badRequest } from "../lib/errors";
import { activeTransition, type WriteAction, type WriteEffects } from "../lib/effects";
import type { CollectionNames } from "../schema/names";
import { CODE_ALPHABET, codeTakenSql, generateThingCode, isCodeUnder, thingEmail } from "./codes";

const CODE_ATTEMPTS = 5;

export function prepareThing(app: CoreApp, n: CollectionNames, thing: core.Record): void {
  if (thing.getString("code") === "") thing.set("code", uniqueCode(app, n, thing));
  // Always the server's: a caller's address could sit in another organization's domain and take the
  // address one of its codes needs (found by a black-box audit, 2026-11-25).
  const organization = findRecord(app, n.organizations, thing.getString("organization"));
  if (organization) thing.set("email", thingEmail(thing.getString("code"), organization.getString("code")));
}

/** An update may change a Thing's code but not blank it: the Thing's sign-in address was made from it. */
export function refuseBlankCode(body: Record<string, unknown>): void {
  if ("code" in body && (typeof body.code !== "string" || body.code.trim() === "")) throw badRequest("code cannot be blank");
}

/** Whether another Thing of the organization holds `code` (never empty) in any letter case. */
export function codeTaken(app: CoreApp, n: CollectionNames, organization: string, code: string, exceptId = ""): boolean {
  const result = new DynamicModel({ taken: 0 }) as { taken: number };
  app
    .db()
    .newQuery(codeTakenSql(n.things))
    .bind({ org: organization, code, id: exceptId })
    .one(result);
  return result.taken > 0;
}

/**
 * Inside the write's transaction, for a code drawn before it (uniqueCode on the rows as read then): whether
 * it is still free and under the type's prefix as committed now.
 */
export function drawnCodeHolds(tx: CoreApp, n: CollectionNames, thing: core.Record): boolean {
  const code = thing.getString("code");
  return isCodeUnder(code, typePrefix(tx, n, thing)) && !codeTaken(tx, n, thing.getString("organization"), code);
}

export function uniqueCode(app: CoreApp, n: CollectionNames, thing: core.Record): string {
  const prefix = typePrefix(app, n, thing);
  for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt++) {
    const code = generateThingCode(prefix, (length) => randomText(length, CODE_ALPHABET));
    if (!codeTaken(app, n, thing.getString("organization"), code)) return code;
  }
  throw badRequest("could not generate a unique Thing code; supply one");
}

function typePrefix(app: CoreApp, n: CollectionNames, thing: core.Record): string {
  const type = findRecord(app, n.thing_types, thing.getString("type"));
  return type ? type.getString("prefix") : "";
}

/**
 * Things' own side of a write: a deactivation (judged against the committed row) kills every token the
 * Thing holds at once, since the auth rule alone acts only at sign-in (spec 3.2).
 */
export function thingEffects(n: CollectionNames, thing: core.Record, action: WriteAction): WriteEffects | undefined {
  if (thing.collection().name !== n.things || action !== "update") return undefined;
  return {
    before: (_tx, previous) => {
      if (activeTransition(previous, thing) === "deactivated") thing.refreshTokenKey();
    },
  };
}
