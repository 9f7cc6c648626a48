import { describe, expect, it } from "vitest";
import { discardPresigned, keepPresigned, takePresigned, type IssuedCertificate, type PresignStore } from "./presigned-hosts";

function memoryStore(): PresignStore & { size(): number } {
  const values = new Map<string, unknown>();
  return {
    get: (key) => values.get(key),
    set: (key, value) => void values.set(key, value),
    remove: (key) => void values.delete(key),
    size: () => values.size,
  };
}

const issued = (cert: string): IssuedCertificate => ({ cert, private_key: "sealed", fingerprint: "ab12", not_after: "2027-11-24 00:00:00.000Z" });

describe("presigned host certificates", () => {
  it("hands the certificate to the host it was kept for when the basis is the same, once", () => {
    const store = memoryStore();
    keepPresigned("host1", "basis", issued("cert-1"), store);
    expect(takePresigned("host1", "basis", store)).toEqual(issued("cert-1"));
    expect(takePresigned("host1", "basis", store)).toBeUndefined();
    expect(store.size()).toBe(0);
  });

  it("refuses it, and drops it, when what the host would be signed from has changed since", () => {
    const store = memoryStore();
    keepPresigned("host1", "basis before the rotation", issued("cert-1"), store);
    expect(takePresigned("host1", "basis after the rotation", store)).toBeUndefined();
    expect(store.size()).toBe(0);
  });

  it("finds nothing for another host, nor for a host with no id yet", () => {
    const store = memoryStore();
    keepPresigned("host1", "basis", issued("cert-1"), store);
    expect(takePresigned("host2", "basis", store)).toBeUndefined();
    expect(takePresigned("", "basis", store)).toBeUndefined();
    expect(store.size()).toBe(1);
  });

  it("discards an entry its write did not use", () => {
    const store = memoryStore();
    keepPresigned("host1", "basis", issued("cert-1"), store);
    discardPresigned("host1", store);
    expect(takePresigned("host1", "basis", store)).toBeUndefined();
  });
});
