// GET /api/org/overlay/cert-audit (owner/admin): the active hosts whose certificate no longer matches
// their network or address, to re-sign.

export interface CertAudit {
  /** Ids of the overlay hosts to re-sign. */
  stale: string[];
}
