import { describe, expect, it } from "vitest";
import { validBucket, hubKeySubject, isMirrorOf, keyOf, operationOf, sameEntry, siteMirrorStream, writeHeaders } from "./wire";

const bytes = (text: string) => new TextEncoder().encode(text);
const headers = (value: string) => ({ get: (name: string) => (name === "KV-Operation" ? value : "") });

describe("key-value wire conventions", () => {
  it("addresses the hub's bucket through its domain's API prefix", () => {
    expect(hubKeySubject("hub", "orders", "a.b")).toBe("$JS.hub.API.$KV.orders.a.b");
  });
  it("accepts bucket names NATS accepts only", () => {
    expect(validBucket("orders_v2-x")).toBe(true);
    expect(validBucket("a.b")).toBe(false);
    expect(validBucket("a>")).toBe(false);
    expect(validBucket("")).toBe(false);
  });
  it("reads keys and operations off stored messages", () => {
    expect(keyOf("orders", "$KV.orders.a.b")).toBe("a.b");
    expect(keyOf("orders", "$KV.other.a")).toBeUndefined();
    expect(operationOf(headers("DEL"))).toBe("DEL");
    expect(operationOf(headers("PURGE"))).toBe("PURGE");
    expect(operationOf(headers(""))).toBe("PUT");
    expect(operationOf(undefined)).toBe("PUT");
  });
  it("treats absent, deleted and purged as the same no-value, and compares values byte for byte", () => {
    expect(sameEntry(undefined, { operation: "DEL", value: bytes("") })).toBe(true);
    expect(sameEntry({ operation: "PURGE", value: bytes("") }, undefined)).toBe(true);
    expect(sameEntry({ operation: "PUT", value: bytes("1") }, { operation: "PUT", value: bytes("1") })).toBe(true);
    expect(sameEntry({ operation: "PUT", value: bytes("1") }, { operation: "PUT", value: bytes("2") })).toBe(false);
    expect(sameEntry({ operation: "DEL", value: bytes("") }, { operation: "PUT", value: bytes("2") })).toBe(false);
    expect(sameEntry({ operation: "PUT", value: bytes("") }, undefined)).toBe(false);
  });
  it("marks relayed deletes and purges", () => {
    expect(writeHeaders("PUT")).toEqual([]);
    expect(writeHeaders("DEL")).toEqual([["KV-Operation", "DEL"]]);
    expect(writeHeaders("PURGE")).toEqual([["KV-Operation", "PURGE"], ["Nats-Rollup", "sub"]]);
  });
  it("builds a mirror with an explicit external prefix and recognises it", () => {
    const config = siteMirrorStream("cfg", "hub", { max_msgs_per_subject: 5, max_age: 0, max_bytes: -1, max_msg_size: -1 } as never);
    expect(config.mirror).toEqual({ name: "KV_cfg", external: { api: "$JS.hub.API", deliver: "" } });
    expect(config.max_msgs_per_subject).toBe(5);
    expect(isMirrorOf(config, "cfg", "hub")).toBe(true);
    expect(isMirrorOf(config, "cfg", "other")).toBe(false);
    expect(isMirrorOf({ name: "KV_cfg", subjects: ["$KV.cfg.>"] }, "cfg", "hub")).toBe(false);
  });
});
