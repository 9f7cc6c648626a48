// The shape of GET /api/me/leaf-config (spec 4.2): the ten fields an edge agent needs to run a leaf server.
// Their names are a cross-component contract (spec 9.5), declared once here: the route (leaf.ts) serves
// them, the agent's gateway reads them (agent/src/gateway/leaf-config.ts), the e2e harnesses build leaves
// from them. Pure data, no PocketBase API: the agent bundles it too.
export const LEAF_CONFIG_FIELDS = [
  "code", "domain", "creds", "account_jwt", "account_pub", "operator_jwt", "sys_account_jwt", "sys_account_pub", "hub_leaf_url", "hub_domain",
] as const;

export type LeafConfig = Record<(typeof LEAF_CONFIG_FIELDS)[number], string>;
