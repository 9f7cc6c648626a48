/// <reference path="../../build/types/types.d.ts" />
// Credentials signed before the write's transaction that stores them. Signing one takes milliseconds (a
// key pair and a signature from the sidecar, encoding and sealing in goja) and needs only rows that
// rarely change (a CA, an account's signing key, a role), yet the record hooks that sign run inside the
// transaction, holding the database's only write connection meanwhile. So POST /api/org/things signs
// its identities first and keeps each here under the id of the record to be, which it chose itself,
// with the text of everything it was signed from (its basis). The record's hook takes it when the basis
// it computes from the rows as committed is the same text, and signs anew otherwise (a CA rotated, the
// signing key replaced, a role changed in between). Nothing but the route puts entries here: an id a
// client chooses never finds one. Entries live in this process's memory only, as the signed credential
// did before, and the route drops its entries when its write fails.
import { randomText } from "./random";

/** What the kept credentials need of $app.store(). */
export interface PresignStore {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  remove(key: string): void;
}

export interface Presigned<T> {
  keep(id: string, basis: string, value: T): void;
  /** The value kept for the record if it was signed from `basis`; the entry is gone either way. */
  take(id: string, basis: string): T | undefined;
  discard(id: string): void;
}

interface Entry<T> {
  basis: string;
  value: T;
}

const appStore = (): PresignStore => $app.store() as unknown as PresignStore;

export function presigned<T>(kind: string, store: () => PresignStore = appStore): Presigned<T> {
  const keyOf = (id: string) => `platform.presigned.${kind}.${id}`;
  return {
    keep(id, basis, value) {
      // JSON text: a JS object put in the store would come back as Go values.
      store().set(keyOf(id), JSON.stringify({ basis, value } satisfies Entry<T>));
    },
    take(id, basis) {
      if (!id) return undefined;
      const stored = store().get(keyOf(id));
      if (typeof stored !== "string") return undefined;
      store().remove(keyOf(id));
      const entry = JSON.parse(stored) as Entry<T>;
      return entry.basis === basis ? entry.value : undefined;
    },
    discard(id) {
      store().remove(keyOf(id));
    },
  };
}

/** PocketBase's own record ids: 15 characters of [a-z0-9]. */
const RECORD_ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

/** A record id chosen before the record is saved, so that what was signed for it can be found. */
export function newRecordId(): string {
  return randomText(15, RECORD_ID_ALPHABET);
}
