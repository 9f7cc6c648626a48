import { describe, expect, it } from "vitest";
import { SEALED_PREFIX, SealingError, seal, unseal, type Cipher } from "./sealing";

// A reversible stand-in for AES-GCM that fails on a wrong key, as the real one does.
const cipher: Cipher = {
  encrypt: (plain, key) => Buffer.from(`${key}|${plain}`).toString("base64"),
  decrypt: (sealed, key) => {
    const [k, plain] = Buffer.from(sealed, "base64").toString().split("|");
    if (k !== key) throw new Error("cipher: message authentication failed");
    return plain;
  },
};
const KEY = "k".repeat(32);

describe("sealing", () => {
  it("stores plaintext without a key and marks sealed values with a key", () => {
    expect(seal(cipher, "SUSEED", "")).toBe("SUSEED");
    const sealed = seal(cipher, "SUSEED", KEY);
    expect(sealed.startsWith(SEALED_PREFIX)).toBe(true);
    expect(sealed).not.toContain("SUSEED");
    expect(unseal(cipher, sealed, KEY, "bus.encryption_key", "the seed")).toBe("SUSEED");
  });

  it("reads rows written before a key was set", () => {
    expect(unseal(cipher, "SUSEED", KEY, "bus.encryption_key", "the seed")).toBe("SUSEED");
  });

  it("says plainly that a sealed row needs the key, naming no secret", () => {
    const sealed = seal(cipher, "SUSEED", KEY);
    expect(() => unseal(cipher, sealed, "", "bus.encryption_key", "the account seed")).toThrow(SealingError);
    expect(() => unseal(cipher, sealed, "", "bus.encryption_key", "the account seed")).toThrow(/written with bus.encryption_key/);
    expect(() => unseal(cipher, sealed, "x".repeat(32), "bus.encryption_key", "the account seed")).toThrow(/another key/);
  });

  it("names the key it was given", () => {
    const sealed = seal(cipher, "CAKEY", KEY);
    expect(() => unseal(cipher, sealed, "", "overlay.encryption_key", "the overlay CA key")).toThrow(
      "the overlay CA key was written with overlay.encryption_key and cannot be read without it; set the same key",
    );
    expect(() => unseal(cipher, sealed, "y".repeat(32), "overlay.encryption_key", "the overlay CA key")).toThrow(/configured overlay.encryption_key/);
  });
});
