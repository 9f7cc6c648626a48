import { busCollections } from "../bus/collections";
import { inventoryCollections } from "../inventory/collections";
import { observabilityCollections } from "../audit/collections";
import { overlayCollections } from "../overlay/collections";
import { tenancyCollections } from "../tenancy/collections";
import type { CollectionNames } from "./names";
import type { CollectionSpec } from "./spec";
import { ORGANIZATION_SCOPE_INDEX, referrerIndexes } from "./common";

/** Every platform collection of spec section 2, in creation order. */
export function platformCollections(n: CollectionNames): CollectionSpec[] {
  return [
    ...tenancyCollections(n),
    ...inventoryCollections(),
    ...busCollections(n),
    ...overlayCollections(),
    ...observabilityCollections(),
  ]
    .map(withOrganizationScopeIndex)
    .map((spec) => ({ ...spec, indexes: [...spec.indexes, ...referrerIndexes(spec)] }));
}

/** Every org-scoped collection gets the index its membership rules seek. */
function withOrganizationScopeIndex(spec: CollectionSpec): CollectionSpec {
  const scoped = spec.fields.some((f) => f.name === "organization");
  return scoped ? { ...spec, indexes: [...spec.indexes, ORGANIZATION_SCOPE_INDEX] } : spec;
}
