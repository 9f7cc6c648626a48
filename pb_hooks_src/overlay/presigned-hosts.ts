/// <reference path="../../build/types/types.d.ts" />
// Host certificates signed before the write's transaction. Signing one (the CA's key unsealed, the
// details encoded, the sidecar's signature, the certificate's hash) takes ~5 ms that needs only the CA
// and the network, yet the host's hook runs inside the transaction, holding the database's only write
// connection meanwhile. So POST /api/org/things signs its host's certificate first and keeps it here
// under the host's id, which it chose itself, with the text of everything it was signed from (its basis).
// The hook takes it when the basis it computes from the rows as committed is the same text, and signs
// anew otherwise (a CA rotated or a network changed in between). Nothing but the route puts entries here:
// an id a client chooses never finds one. Entries live in this process's memory only, as the signed
// certificate did before, and the route drops its entry when its write fails.

/** The certificate fields of a host row, as they are stored. */
export interface IssuedCertificate {
  cert: string;
  /** Sealed with overlay.encryption_key when set. */
  private_key: string;
  fingerprint: string;
  not_after: string;
}

/** What the presigned certificates need of $app.store(). */
export interface PresignStore {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  remove(key: string): void;
}

interface Entry {
  basis: string;
  issued: IssuedCertificate;
}

const appStore = (): PresignStore => $app.store() as unknown as PresignStore;
const keyOf = (hostId: string) => `platform.presignedHost.${hostId}`;

export function keepPresigned(hostId: string, basis: string, issued: IssuedCertificate, store: PresignStore = appStore()): void {
  // JSON text: a JS object put in the store would come back as Go values.
  store.set(keyOf(hostId), JSON.stringify({ basis, issued } satisfies Entry));
}

/** The certificate kept for the host if it was signed from `basis`; the entry is gone either way. */
export function takePresigned(hostId: string, basis: string, store: PresignStore = appStore()): IssuedCertificate | undefined {
  if (!hostId) return undefined;
  const stored = store.get(keyOf(hostId));
  if (typeof stored !== "string") return undefined;
  store.remove(keyOf(hostId));
  const entry = JSON.parse(stored) as Entry;
  return entry.basis === basis ? entry.issued : undefined;
}

export function discardPresigned(hostId: string, store: PresignStore = appStore()): void {
  store.remove(keyOf(hostId));
}
