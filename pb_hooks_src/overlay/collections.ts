// Overlay collections (spec 2.1 overlay rows, rules 6, 12, 13). Issuance arrives with the overlay PKI;
// the schema and its rules exist from the start.
import { MANAGERS } from "../lib/roles";
import { ORGANIZATION, organizationOrderIndexes, orgScopedRules, trustAnchorRules } from "../schema/common";
import { LARGE_TEXT, TIMESTAMPS, type CollectionSpec } from "../schema/spec";

export function overlayCollections(): CollectionSpec[] {
  const managersOnly = orgScopedRules({ read: MANAGERS, create: MANAGERS, update: MANAGERS, delete: MANAGERS });

  const ca: CollectionSpec = {
    key: "overlay_ca",
    type: "base",
    fields: [
      ORGANIZATION,
      { type: "text", name: "name" },
      { type: "text", name: "cert", max: LARGE_TEXT },
      { type: "text", name: "private_key", hidden: true, max: LARGE_TEXT },
      { type: "text", name: "fingerprint" },
      { type: "date", name: "not_after" },
      // Fingerprints of host certificates revoked for good (deactivations, docs/overlay.md "Deactivation").
      { type: "json", name: "revoked_fingerprints" },
      // CA rotation (POST /api/org/overlay-ca/rotate, docs/overlay.md "CA rotation"): the incoming CA while
      // prepared, the outgoing one while committed; rotation empty when none is under way.
      { type: "select", name: "rotation", values: ["prepared", "committed"] },
      { type: "text", name: "next_cert", max: LARGE_TEXT },
      { type: "text", name: "next_private_key", hidden: true, max: LARGE_TEXT },
      { type: "text", name: "next_fingerprint" },
      { type: "date", name: "next_not_after" },
      { type: "text", name: "previous_cert", max: LARGE_TEXT },
      { type: "text", name: "previous_fingerprint" },
      ...TIMESTAMPS,
    ],
    indexes: [],
    rules: trustAnchorRules(),
  };

  const networks: CollectionSpec = {
    key: "overlay_networks",
    type: "base",
    fields: [
      ORGANIZATION,
      { type: "text", name: "name", required: true, max: 200 },
      { type: "text", name: "cidr", required: true, max: 64 },
      { type: "text", name: "description", max: 2000 },
      ...TIMESTAMPS,
    ],
    indexes: [],
    rules: managersOnly,
  };

  const hosts: CollectionSpec = {
    key: "overlay_hosts",
    type: "base",
    fields: [
      ORGANIZATION,
      { type: "relation", name: "network", target: "overlay_networks", required: true },
      { type: "text", name: "name", required: true, max: 200 },
      { type: "text", name: "overlay_ip", required: true, max: 64 },
      { type: "json", name: "groups" },
      { type: "bool", name: "active" },
      // A lighthouse of its network; the others' configs point at it through public_endpoint ("ip:port").
      { type: "bool", name: "is_lighthouse" },
      { type: "text", name: "public_endpoint", max: 300 },
      { type: "text", name: "cert", max: LARGE_TEXT },
      { type: "text", name: "private_key", hidden: true, max: LARGE_TEXT },
      { type: "text", name: "fingerprint" },
      { type: "date", name: "not_after" },
      // config_yaml embeds the host key and is deliberately not hidden: rules scope it (rule 12).
      { type: "text", name: "config_yaml", max: LARGE_TEXT },
      ...TIMESTAMPS,
    ],
    indexes: [
      "CREATE UNIQUE INDEX idx_{table}_network_ip ON {table} (network, overlay_ip)",
      // A host's config lists its network's lighthouses (overlay/lighthouses.ts), in address order;
      // partial, so it holds only the few lighthouses and costs the other hosts' writes nothing.
      "CREATE INDEX idx_{table}_lighthouses ON {table} (network, overlay_ip) WHERE is_lighthouse = 1",
      ...organizationOrderIndexes("name"),
    ],
    rules: managersOnly,
  };

  return [ca, networks, hosts];
}
