/// <reference path="../../../../build/types/types.d.ts" />
// bootstrap (spec 4.3, 7): some user has is_operator set and some organization has is_system_org.
import { collectionNames } from "../../../schema/names";
import { LAUNCHER, count, schemaGap, type Check } from "./check";

export const BOOTSTRAP_FIX = `${LAUNCHER} migrate up && ${LAUNCHER} bootstrap --email <operator email>`;

/**
 * bootstrap refuses a database that has either half (tenancy/bootstrap.ts#isBootstrapped), so a database
 * that lost one half (a hand edit, a partial restore) is mended by hand.
 */
const HALF_BOOTSTRAPPED_FIX =
  `${BOOTSTRAP_FIX} refuses a database bootstrapped before, as this one was in part: restore it from a backup, ` +
  "or set the missing flag on the operator's user or the system organization in the admin UI (/_/).";

export const bootstrap: Check = ({ app, config }) => {
  const n = collectionNames(config);
  /** What is missing of one half: nothing, or why (naming a schema gap that keeps the check from looking). */
  const lacks = (collection: string, flag: string, absence: string): string | undefined => {
    const gap = schemaGap(app, { [collection]: [flag] });
    if (gap) return `${absence}: ${gap}`;
    return count(app, `SELECT COUNT(*) AS n FROM {{${collection}}} WHERE ${flag} = TRUE`) === 0 ? absence : undefined;
  };
  const missing = [
    lacks(n.users, "is_operator", "no user has is_operator set"),
    lacks(n.organizations, "is_system_org", "no organization has is_system_org set"),
  ].filter((problem): problem is string => problem !== undefined);
  if (missing.length === 0) return { state: "ok" };
  return { state: "fail", detail: `not bootstrapped: ${missing.join("; ")}`, fix: missing.length === 2 ? BOOTSTRAP_FIX : HALF_BOOTSTRAPPED_FIX };
};
