import { describe, expect, it } from "vitest";
import { canonical, changedFields, isEmpty, isSecret, sameValue, valuesOf, type FieldInfo } from "./changes";

const field = (name: string, type = "text", hidden = false): FieldInfo => ({ name, type, hidden });
const USERS: FieldInfo[] = [
  field("id"),
  field("password", "password", true),
  field("tokenKey", "text", true),
  field("email", "email"),
  field("verified", "bool"),
  field("name"),
  field("metadata", "json"),
  field("tags", "select"),
  field("created", "autodate"),
  field("updated", "autodate"),
];

describe("changedFields", () => {
  it("on create lists the fields given a non-empty value, never id or timestamps", () => {
    const after = { id: "u1", password: "h", tokenKey: "k", email: "a@x", verified: false, name: "", metadata: null, tags: [], created: "t", updated: "t" };
    expect(changedFields(USERS, undefined, after)).toEqual(["password", "tokenKey", "email"]);
  });

  it("on update lists the fields whose value differs", () => {
    const before = { id: "u1", email: "a@x", verified: false, name: "A", metadata: { a: 1, b: [1, 2] }, tags: ["x"], updated: "t1" };
    const after = { id: "u1", email: "a@x", verified: true, name: "A", metadata: { b: [1, 2], a: 1 }, tags: ["x", "y"], updated: "t2" };
    expect(changedFields(USERS, before, after)).toEqual(["verified", "tags"]);
  });

  it("treats JSON documents with reordered keys as unchanged, and reordered arrays as changed", () => {
    expect(changedFields([field("m", "json")], { m: { a: 1, b: 2 } }, { m: { b: 2, a: 1 } })).toEqual([]);
    expect(changedFields([field("m", "json")], { m: [1, 2] }, { m: [2, 1] })).toEqual(["m"]);
  });

  it("names a changed secret without needing its value", () => {
    expect(changedFields(USERS, { password: "h1", tokenKey: "k1" }, { password: "h2", tokenKey: "k2" })).toEqual(["password", "tokenKey"]);
  });

  it("on delete lists every field but id and timestamps", () => {
    expect(changedFields(USERS, { email: "a@x" }, undefined)).toEqual(["password", "tokenKey", "email", "verified", "name", "metadata", "tags"]);
  });

  it("lists nothing for a save that changed nothing", () => {
    const values = { id: "u1", email: "a@x", verified: true };
    expect(changedFields(USERS, values, { ...values })).toEqual([]);
  });
});

describe("sameValue", () => {
  it("agrees with the canonical text on every kind of value", () => {
    const values: unknown[] = [null, undefined, "", "a", "b", 0, 1, true, false, [], [1, 2], [2, 1], {}, { a: 1, b: 2 }, { b: 2, a: 1 }, { a: 1 }, { a: [1, { c: 1, d: 2 }] }, { a: [1, { d: 2, c: 1 }] }, "null", "1"];
    for (const a of values) for (const b of values) expect(sameValue(a, b), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBe(canonical(a) === canonical(b));
  });
});

describe("isSecret", () => {
  it("covers password fields, the token key and every hidden field", () => {
    expect(isSecret(field("password", "password", false))).toBe(true);
    expect(isSecret(field("tokenKey", "text", false))).toBe(true);
    expect(isSecret(field("seed", "text", true))).toBe(true);
    expect(isSecret(field("creds_file", "text", false))).toBe(false);
  });
});

describe("valuesOf", () => {
  it("keeps the named non-secret fields and drops credentials", () => {
    const values = { password: "h", tokenKey: "k", email: "a@x", name: "A", verified: true };
    expect(valuesOf(USERS, values, ["password", "tokenKey", "email", "verified"])).toEqual({ email: "a@x", verified: true });
  });

  it("gives null for an absent state and null for a missing value", () => {
    expect(valuesOf(USERS, undefined, ["email"])).toBeNull();
    expect(valuesOf(USERS, {}, ["email"])).toEqual({ email: null });
  });
});

describe("isEmpty / canonical", () => {
  it.each([[null], [undefined], [""], [false], [0], [[]], [{}]])("%j is empty", (value) => {
    expect(isEmpty(value)).toBe(true);
  });

  it.each([["x"], [true], [1], [["a"]], [{ a: null }]])("%j is not empty", (value) => {
    expect(isEmpty(value)).toBe(false);
  });

  it("sorts object keys at every depth", () => {
    expect(canonical({ b: { d: 1, c: [{ f: 1, e: 2 }] }, a: undefined })).toBe('{"a":null,"b":{"c":[{"e":2,"f":1}],"d":1}}');
  });
});
