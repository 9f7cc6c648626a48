// The one query of a host's config that depends on other hosts: pure SQL text, so the e2e tests read its
// query plan too (e2e/inventory/write-lookups.test.ts).
/**
 * The lighthouses a host's config points at (hosts.ts reads them). `is_lighthouse = 1` is the
 * condition of the partial index (network, overlay_ip) that holds only lighthouses, so SQLite reads just
 * those; before it, every save of a host read every host of its network, inside the write transaction
 * (docs/performance.md "Writes in a large tenant").
 */
export const lighthousesSql = (hosts: string): string =>
  `SELECT [[overlay_ip]] AS overlayIp, [[public_endpoint]] AS publicEndpoint FROM {{${hosts}}} ` +
  `WHERE [[network]] = {:network} AND [[is_lighthouse]] = 1 AND [[active]] = 1 AND [[public_endpoint]] != '' AND [[id]] != {:self} ` +
  `ORDER BY [[overlay_ip]]`;
