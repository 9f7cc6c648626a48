import { describe, expect, it } from "vitest";
import { presigned, type PresignStore } from "./presigned";

function memoryStore(): PresignStore & { size(): number } {
  const values = new Map<string, unknown>();
  return {
    get: (key) => values.get(key),
    set: (key, value) => void values.set(key, value),
    remove: (key) => void values.delete(key),
    size: () => values.size,
  };
}

interface Issued {
  cert: string;
  fingerprint: string;
}

const issued = (cert: string): Issued => ({ cert, fingerprint: "ab12" });

describe("presigned", () => {
  it("hands the value to the record it was kept for when the basis is the same, once", () => {
    const store = memoryStore();
    const hosts = presigned<Issued>("overlay.host", () => store);
    hosts.keep("host1", "basis", issued("cert-1"));
    expect(hosts.take("host1", "basis")).toEqual(issued("cert-1"));
    expect(hosts.take("host1", "basis")).toBeUndefined();
    expect(store.size()).toBe(0);
  });

  it("refuses it, and drops it, when what it was signed from has changed since", () => {
    const store = memoryStore();
    const hosts = presigned<Issued>("overlay.host", () => store);
    hosts.keep("host1", "basis before the rotation", issued("cert-1"));
    expect(hosts.take("host1", "basis after the rotation")).toBeUndefined();
    expect(store.size()).toBe(0);
  });

  it("finds nothing for another record, another kind, nor a record with no id yet", () => {
    const store = memoryStore();
    const hosts = presigned<Issued>("overlay.host", () => store);
    hosts.keep("host1", "basis", issued("cert-1"));
    expect(hosts.take("host2", "basis")).toBeUndefined();
    expect(hosts.take("", "basis")).toBeUndefined();
    expect(presigned<Issued>("bus.user", () => store).take("host1", "basis")).toBeUndefined();
    expect(store.size()).toBe(1);
  });

  it("discards an entry its write did not use", () => {
    const store = memoryStore();
    const hosts = presigned<Issued>("overlay.host", () => store);
    hosts.keep("host1", "basis", issued("cert-1"));
    hosts.discard("host1");
    expect(hosts.take("host1", "basis")).toBeUndefined();
    expect(store.size()).toBe(0);
  });
});
