/// <reference path="../../../../build/types/types.d.ts" />
// bootstrap (spec 4.3, 7): some user has is_operator set and some organization has is_system_org.
import { collectionNames } from "../../../schema/names";
import { LAUNCHER, count, schemaGap, type Check } from "./check";

export const BOOTSTRAP_FIX = `${LAUNCHER} migrate up && ${LAUNCHER} bootstrap --email <operator email>`;

export const bootstrap: Check = ({ app, config }) => {
  const n = collectionNames(config);
  const gap = schemaGap(app, { [n.users]: ["is_operator"], [n.organizations]: ["is_system_org"] });
  if (gap) return { state: "fail", detail: `not bootstrapped: no user has is_operator set; ${gap}`, fix: BOOTSTRAP_FIX };
  const missing: string[] = [];
  if (count(app, `SELECT COUNT(*) AS n FROM {{${n.users}}} WHERE is_operator = TRUE`) === 0) missing.push("no user has is_operator set");
  if (count(app, `SELECT COUNT(*) AS n FROM {{${n.organizations}}} WHERE is_system_org = TRUE`) === 0) {
    missing.push("no organization has is_system_org set");
  }
  return missing.length === 0 ? { state: "ok" } : { state: "fail", detail: `not bootstrapped: ${missing.join("; ")}`, fix: BOOTSTRAP_FIX };
};
